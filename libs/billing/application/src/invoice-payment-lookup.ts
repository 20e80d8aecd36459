import type { Subscription } from '@xaalis/billing-domain';
import { PAYMENTS_GET, request, type BusRequester, type PaymentReply } from '@xaalis/contracts';
import { DomainError } from '@xaalis/kernel';

/**
 * An invoice's payment attempt as the payments app knows it, in its subscription's merchant and
 * mode; undefined when the payments app never made it (a try that died between recording the
 * attempt and making its payment).
 */
export async function findInvoicePayment(
  bus: BusRequester,
  subscription: Pick<Subscription, 'merchantId' | 'mode'>,
  paymentId: string,
): Promise<PaymentReply | undefined> {
  try {
    return await request(bus, PAYMENTS_GET, {
      merchant_id: subscription.merchantId,
      mode: subscription.mode,
      payment_id: paymentId,
    });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') return undefined;
    throw error;
  }
}
