/** The caller picks the stream, `exchange-phone-<phone>-<Dakar day of now>` (`phoneDayStream`). */
export type ReserveAmount = {
  type: 'ReserveAmount';
  data: { exchangeId: string; amount: number; now: Date };
};

/** The exchange failed or expired: what it held no longer counts against the day. */
export type ReleaseAmount = {
  type: 'ReleaseAmount';
  data: { exchangeId: string; now: Date };
};

export type PhoneDayCommand = ReserveAmount | ReleaseAmount;
