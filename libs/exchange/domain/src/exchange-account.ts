import type { Decider } from '@xaalis/kernel';

/**
 * The service's own test-mode account (issue 21): the merchant that takes the customers'
 * payments and funds the payouts to their phones. Opened once, on the first start; its stream
 * names it, so every replica and every restart uses the same one.
 */
export const EXCHANGE_ACCOUNT_STREAM = 'exchange-account';

/**
 * What the account is funded with at opening, by a test payment to itself: each exchange's own
 * payment funds its payout, and this pays the payment fee of a full refund after a failed one.
 */
export const EXCHANGE_FLOAT = 10_000_000;

export type ExchangeAccountOpened = {
  type: 'ExchangeAccountOpened';
  data: { merchantId: string; floatPaymentId: string; openedAt: string };
};

export type ExchangeAccountEvent = ExchangeAccountOpened;

export const EXCHANGE_ACCOUNT_EVENT_TYPES: readonly ExchangeAccountEvent['type'][] = [
  'ExchangeAccountOpened',
];

/** The ids are the caller's; the first opening wins and a later one decides nothing. */
export type OpenExchangeAccount = {
  type: 'OpenExchangeAccount';
  data: { merchantId: string; floatPaymentId: string; now: Date };
};

export type ExchangeAccount = ExchangeAccountOpened['data'];
export type ExchangeAccountState = ExchangeAccount | null;

/** Its one event opens it. */
const evolve = (_state: ExchangeAccountState, event: ExchangeAccountEvent): ExchangeAccountState =>
  event.data;

function decide(
  { data }: OpenExchangeAccount,
  state: ExchangeAccountState,
): ExchangeAccountEvent[] {
  if (state !== null) return [];
  return [
    {
      type: 'ExchangeAccountOpened',
      data: {
        merchantId: data.merchantId,
        floatPaymentId: data.floatPaymentId,
        openedAt: data.now.toISOString(),
      },
    },
  ];
}

export const exchangeAccountDecider: Decider<
  ExchangeAccountState,
  OpenExchangeAccount,
  ExchangeAccountEvent
> = { initialState: () => null, evolve, decide };
