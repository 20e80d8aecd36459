import type { OrangeMoneyConfig } from '@xaalis/config';
import { DomainError, isRecord } from '@xaalis/kernel';
import {
  assertXofAmount,
  describeAnswer,
  isDefinitiveRefusal,
  isSuccess,
  OrangeMoneyApi,
  stringOrNull,
  type ProviderOptions,
} from '@xaalis/provider-http';
import type {
  LivePayoutProvider,
  PayoutLookup,
  PayoutProviderStatus,
  SendPayout,
} from '../payout-provider';
import {
  isCashInOf,
  orangeCashInStatus,
  pickOrangeCashIn,
  readOrangeCashIn,
  type OrangeCashIn,
} from './orange-money-cash-in';

/**
 * Orange Money Senegal payouts as Sonatel cash-ins: money from our wallet to the recipient's.
 *
 * Taken from Sonatel's documentation: the Cash In API exists (developer.orange-sonatel.com,
 * "Cash In - OM": a deposit from a distributor's wallet to a customer's, one or in bulk); the
 * OAuth2 client-credentials token (`POST /oauth/v1/token`); the transaction search
 * `GET /api/eWallet/v1/transactions?reference=…`, which finds nothing when given a `type`; the
 * 415 without a JSON content type; the statuses SUCCESS, FAILED, REJECTED, CANCELLED, PENDING,
 * INITIATED (the payment adapter reads the same).
 *
 * Our assumptions, not confirmed there: the path `POST /api/eWallet/v1/cashins`; its body
 * (`partner` as our merchant CODE without `encryptedPinCode`, `customer` as the MSISDN without
 * +221, `amount`, `reference`, `receiveNotification`); its answer being the transaction
 * (`transactionId`, `status`); and that the search finds a cash-in by its reference as soon as it
 * is made. A real distributor cash-in likely takes the distributor's MSISDN and encrypted PIN, which
 * the configuration does not have.
 *
 * Never twice: Sonatel's API has no idempotency key, so `send` first searches the payout's
 * reference and posts only when no cash-in has it. That check and the post are not atomic: the
 * caller runs one `send` of a payout at a time (its job's lease), never two at once. When the
 * search cannot answer, nothing is posted (`unknown`).
 */
export class OrangeMoneyPayoutProvider implements LivePayoutProvider {
  readonly name = 'orange_money' as const;
  private readonly api: OrangeMoneyApi;

  constructor(config: OrangeMoneyConfig, options: ProviderOptions) {
    this.api = new OrangeMoneyApi(config, options, 'Orange Money payouts');
  }

  async send(input: SendPayout): Promise<PayoutProviderStatus> {
    const { merchantCode } = this.api.credentials();
    assertXofAmount('amount', input.amount);
    const msisdn = senegaleseMsisdn(input.recipientPhone);
    const existing = await this.lookup({ payoutId: input.payoutId, providerReference: null });
    if (existing.status !== 'not_found') return existing;
    const response = await this.api.authorized('POST', '/api/eWallet/v1/cashins', {
      partner: { idType: 'CODE', id: merchantCode },
      customer: { idType: 'MSISDN', id: msisdn },
      amount: { value: input.amount, unit: 'XOF' },
      reference: input.payoutId,
      receiveNotification: false,
    });
    // A refused token says nothing of the transfer: unknown like no answer, never a failure.
    if (response.kind !== 'answered') return { status: 'unknown', reason: response.reason };
    if (isSuccess(response.status)) {
      const cashIn = readOrangeCashIn(response.json);
      return cashIn === null
        ? { status: 'unknown', reason: 'unreadable Orange Money cash-in' }
        : orangeCashInStatus(cashIn);
    }
    const reason = describeAnswer('orange_money', response.status, response.json);
    // A 409 says a cash-in already has this reference, though the search did not show it yet.
    if (!isDefinitiveRefusal(response.status) || response.status === 409) {
      return { status: 'unknown', reason };
    }
    const code = isRecord(response.json) ? stringOrNull(response.json['code']) : null;
    return { status: 'failed', providerReference: null, reason: code ?? reason };
  }

  async lookup(input: PayoutLookup): Promise<PayoutProviderStatus> {
    const search = await this.api.transactionsByReference(input.payoutId);
    if (search.kind === 'unknown') return { status: 'unknown', reason: search.reason };
    const found = search.transactions.map(readOrangeCashIn);
    if (found.some((transaction) => transaction === null)) {
      return { status: 'unknown', reason: 'unreadable Orange Money transaction' };
    }
    const ours = (found as OrangeCashIn[]).filter((t) => isCashInOf(input.payoutId, t));
    const cashIn = pickOrangeCashIn(ours, input.providerReference);
    return cashIn === null ? { status: 'not_found' } : orangeCashInStatus(cashIn);
  }
}

/** `+221771234567` → `771234567`: Orange Money Senegal takes the national number. */
function senegaleseMsisdn(phone: string): string {
  const match = /^\+221(\d{9})$/.exec(phone);
  if (match?.[1] === undefined) {
    throw new DomainError(
      'validation_error',
      'recipientPhone must be a Senegalese number (+221 and 9 digits).',
      [{ field: 'recipientPhone', issue: 'must be +221 followed by 9 digits' }],
    );
  }
  return match[1];
}
