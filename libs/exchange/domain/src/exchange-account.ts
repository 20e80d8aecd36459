import { assertNever, notFound, type Decider } from '@xaalis/kernel';

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

/** Its float's test payment succeeded: nothing more to do for it. */
export type ExchangeAccountFunded = {
  type: 'ExchangeAccountFunded';
  data: { merchantId: string; fundedAt: string };
};

export type ExchangeAccountEvent = ExchangeAccountOpened | ExchangeAccountFunded;

export const EXCHANGE_ACCOUNT_EVENT_TYPES: readonly ExchangeAccountEvent['type'][] = [
  'ExchangeAccountOpened',
  'ExchangeAccountFunded',
];

/** The ids are the caller's; the first opening wins and a later one decides nothing. */
export type OpenExchangeAccount = {
  type: 'OpenExchangeAccount';
  data: { merchantId: string; floatPaymentId: string; now: Date };
};

export type RecordAccountFunded = {
  type: 'RecordAccountFunded';
  data: { now: Date };
};

export type ExchangeAccountCommand = OpenExchangeAccount | RecordAccountFunded;

export type ExchangeAccount = ExchangeAccountOpened['data'] & { fundedAt: string | null };
export type ExchangeAccountState = ExchangeAccount | null;

function evolve(state: ExchangeAccountState, event: ExchangeAccountEvent): ExchangeAccountState {
  switch (event.type) {
    case 'ExchangeAccountOpened':
      return { ...event.data, fundedAt: null };
    case 'ExchangeAccountFunded':
      return state && { ...state, fundedAt: event.data.fundedAt };
    default:
      return assertNever(event);
  }
}

function decide(
  command: ExchangeAccountCommand,
  state: ExchangeAccountState,
): ExchangeAccountEvent[] {
  switch (command.type) {
    case 'OpenExchangeAccount': {
      if (state !== null) return [];
      const { merchantId, floatPaymentId, now } = command.data;
      return [
        {
          type: 'ExchangeAccountOpened',
          data: { merchantId, floatPaymentId, openedAt: now.toISOString() },
        },
      ];
    }
    case 'RecordAccountFunded': {
      if (state === null) throw notFound('exchange account');
      if (state.fundedAt !== null) return [];
      return [
        {
          type: 'ExchangeAccountFunded',
          data: { merchantId: state.merchantId, fundedAt: command.data.now.toISOString() },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}

export const exchangeAccountDecider: Decider<
  ExchangeAccountState,
  ExchangeAccountCommand,
  ExchangeAccountEvent
> = { initialState: () => null, evolve, decide };
