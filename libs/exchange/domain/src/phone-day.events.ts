/** Facts of one phone's Dakar day (stream `exchange-phone-<phone>-<YYYY-MM-DD>`). */
export type AmountReserved = {
  type: 'AmountReserved';
  data: { exchangeId: string; amount: number; reservedAt: string };
};

export type AmountReleased = {
  type: 'AmountReleased';
  data: { exchangeId: string; amount: number; releasedAt: string };
};

export type PhoneDayEvent = AmountReserved | AmountReleased;

export const PHONE_DAY_EVENT_TYPES: readonly PhoneDayEvent['type'][] = [
  'AmountReserved',
  'AmountReleased',
];
