import type { PrismaTx, Projection } from '@xaalis/database';
import type { RecordedEvent } from '@xaalis/event-store';
import { EXCHANGE_ACCOUNT_STREAM, type ExchangeEvent } from '@xaalis/exchange-domain';
import { deleteJobsOfKinds, scheduleJobs, type JobChange } from '@xaalis/jobs';
import { ACCOUNT_FOLD, asExchangeEvent } from './exchange-folds';
import { exchangeJobs, PROJECTED_EXCHANGE_JOB_KINDS } from './exchange-jobs.kinds';

export const EXCHANGE_PROJECTION = 'exchange';

/**
 * How long the request that creates an exchange has to make its payment before the job makes it:
 * the job is the repair of a crash between the two, not the usual way.
 */
export const PAYMENT_REPAIR_AFTER_MS = 60_000;

/**
 * No read model: exchanges are read from their streams. The projection writes the exchange's
 * durable steps with the facts that call for them, so a restart loses none.
 */
export const exchangeProjection: Projection = {
  name: EXCHANGE_PROJECTION,
  streamPrefixes: ['exchange-'],
  apply: (recorded, tx) => scheduleExchangeJobs([recorded], tx),
  applyBatch: scheduleExchangeJobs,
  async reset(tx: PrismaTx): Promise<void> {
    await deleteJobsOfKinds(tx, PROJECTED_EXCHANGE_JOB_KINDS);
  },
};

async function scheduleExchangeJobs(batch: RecordedEvent[], tx: PrismaTx): Promise<void> {
  const changes = batch.flatMap((recorded) => {
    if (recorded.streamName === EXCHANGE_ACCOUNT_STREAM) {
      const opened = ACCOUNT_FOLD.asEvent(recorded);
      return opened
        ? [exchangeJobs.fundAccount(opened.data.merchantId, new Date(opened.data.openedAt))]
        : [];
    }
    const event = asExchangeEvent(recorded);
    const change = event && advanceFor(event);
    return change ? [change] : [];
  });
  if (changes.length > 0) await scheduleJobs(tx, changes);
}

/** The step a fact calls for, due when the fact happened (at once), or null for none. */
function advanceFor(event: ExchangeEvent): JobChange | null {
  const { exchangeId } = event.data;
  switch (event.type) {
    case 'ExchangeCreated':
      return exchangeJobs.advance(
        exchangeId,
        new Date(Date.parse(event.data.createdAt) + PAYMENT_REPAIR_AFTER_MS),
      );
    case 'ExchangeProcessing':
      return exchangeJobs.advance(exchangeId, new Date(event.data.paidAt));
    case 'ExchangeFailed':
      return exchangeJobs.advance(exchangeId, new Date(event.data.failedAt));
    case 'ExchangeExpired':
      return exchangeJobs.advance(exchangeId, new Date(event.data.expiredAt));
    case 'ExchangeRefundRequested':
    case 'ExchangeCompleted':
    case 'ExchangeRefunded':
      return null;
  }
}
