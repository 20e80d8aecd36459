/**
 * The quote's id, the hash of its opaque token (the token itself never reaches a stream) and
 * `now` are made by the caller, so `decide` stays pure. `feeBps` is configuration.
 */
export type IssueQuote = {
  type: 'IssueQuote';
  data: {
    quoteId: string;
    tokenHash: string;
    from: string;
    to: string;
    sendAmount: number;
    phone: string;
    feeBps: number;
    now: Date;
  };
};

/** `POST /v1/public/exchanges` (spec 4.5): `exchangeId` is the exchange this redemption opens. */
export type RedeemQuote = {
  type: 'RedeemQuote';
  data: { tokenHash: string; otp: string; exchangeId: string; now: Date };
};

export type QuoteCommand = IssueQuote | RedeemQuote;
