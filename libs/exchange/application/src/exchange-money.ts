import { Inject, Injectable } from '@nestjs/common';
import { BUS_CLIENT } from '@xaalis/config';
import {
  PAYMENTS_CREATE,
  PAYMENTS_GET,
  PAYMENTS_REFUND_CREATE,
  PAYMENTS_TEST_HELPER,
  PAYOUTS_PAYOUT_CREATE,
  request,
  type BusRequester,
  type PaymentReply,
} from '@xaalis/contracts';
import { EXCHANGE_FLOAT, type Exchange, type ExchangeAccount } from '@xaalis/exchange-domain';
import { DomainError } from '@xaalis/kernel';

/** The name customers see on the checkout and the sandbox pages. */
export const EXCHANGE_MERCHANT_NAME = 'Xaalis Échange';

const PROVIDER_NAMES = { wave: 'Wave', orange_money: 'Orange Money' } as const;

/** `9700` → `9 700 FCFA`, as the hosted pages write amounts. */
const xof = (amount: number): string =>
  `${String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f')} FCFA`;

/** What the checkout page says the customer will receive, and where (issue 21). */
export const paymentDescription = (exchange: Exchange): string =>
  `Échange : ${xof(exchange.receiveAmount)} versés sur ${PROVIDER_NAMES[exchange.to]} au ` +
  `${exchange.phone}, frais ${xof(exchange.fee)}.`;

/** The refund of an exchange's payment, if its payout fails: one id per exchange. */
export const refundIdOf = (exchange: Pick<Exchange, 'exchangeId'>): string =>
  `re_${exchange.exchangeId.slice('ex_'.length)}`;

/**
 * The exchange's money moves, each a request to the context that owns it, on the service's own
 * account, in test mode. Every one is idempotent by an id fixed before it is first sent (the
 * payment's, the payout's, the refund's), so a repeat after a crash or a timeout changes nothing.
 */
@Injectable()
export class ExchangeMoney {
  constructor(@Inject(BUS_CLIENT) private readonly bus: BusRequester) {}

  /** The customer's payment of `send_amount` with `from`, made if it is not there yet. */
  ensurePayment(exchange: Exchange, account: ExchangeAccount): Promise<PaymentReply> {
    return request(this.bus, PAYMENTS_CREATE, {
      ...scope(account),
      payment_id: exchange.paymentId,
      merchant_name: EXCHANGE_MERCHANT_NAME,
      amount: exchange.sendAmount,
      provider: exchange.from,
      description: paymentDescription(exchange),
      client_reference: exchange.exchangeId,
      metadata: { exchange: exchange.exchangeId },
    });
  }

  /** The payment, or null if it was never made (a crash before it: the job makes it). */
  async findPayment(paymentId: string, account: ExchangeAccount): Promise<PaymentReply | null> {
    try {
      return await request(this.bus, PAYMENTS_GET, { ...scope(account), payment_id: paymentId });
    } catch (error) {
      if (error instanceof DomainError && error.code === 'not_found') return null;
      throw error;
    }
  }

  /**
   * `receive_amount` to the phone with `to`, funded by the customer's payment: named so that the
   * ledger credits it first if `payment.succeeded` has not reached it yet.
   */
  async payOut(exchange: Exchange, account: ExchangeAccount): Promise<void> {
    const payment = await this.findPayment(exchange.paymentId, account);
    if (payment === null) throw new Error(`${exchange.exchangeId}: its payment is missing`);
    await request(this.bus, PAYOUTS_PAYOUT_CREATE, {
      ...scope(account),
      payout_id: exchange.payoutId,
      provider: exchange.to,
      amount: exchange.receiveAmount,
      recipient: { phone: exchange.phone },
      client_reference: exchange.exchangeId,
      credit_first: { id: payment.id, amount: payment.amount, fee: payment.fee },
    });
  }

  /** All of `send_amount` back to the customer, once. */
  async refund(exchange: Exchange, account: ExchangeAccount): Promise<void> {
    await request(this.bus, PAYMENTS_REFUND_CREATE, {
      ...scope(account),
      refund_id: refundIdOf(exchange),
      payment_id: exchange.paymentId,
      amount: exchange.sendAmount,
    });
  }

  /** The account's float: a test payment to itself, made and marked succeeded once. */
  async fund(account: ExchangeAccount): Promise<void> {
    const existing = await this.findPayment(account.floatPaymentId, account);
    if (existing?.status === 'succeeded') return;
    if (existing === null) {
      await request(this.bus, PAYMENTS_CREATE, {
        ...scope(account),
        payment_id: account.floatPaymentId,
        merchant_name: EXCHANGE_MERCHANT_NAME,
        amount: EXCHANGE_FLOAT,
        description: "Fonds de l'échange Xaalis (mode test)",
      });
    }
    await request(this.bus, PAYMENTS_TEST_HELPER, {
      ...scope(account),
      payment_id: account.floatPaymentId,
      action: 'succeed',
    });
  }
}

const scope = (account: ExchangeAccount) => ({
  merchant_id: account.merchantId,
  mode: 'test' as const,
});
