import type { PrismaTx, Projection } from '@xaalis/database';
import type { RecordedEvent } from '@xaalis/event-store';
import {
  EXCHANGE_ACCOUNT_STREAM,
  type ExchangeAccountEvent,
  type ExchangeEvent,
} from '@xaalis/exchange-domain';
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
      const event = ACCOUNT_FOLD.asEvent(recorded);
      return event ? [fundingFor(event)] : [];
    }
    const event = asExchangeEvent(recorded);
    const change = event && advanceFor(event);
    return change ? [change] : [];
  });
  if (changes.length > 0) await scheduleJobs(tx, changes);
}

/** Funded once: opening asks for it, its record ends it. */
function fundingFor(event: ExchangeAccountEvent): JobChange {
  return event.type === 'ExchangeAccountOpened'
    ? exchangeJobs.fundAccount(event.data.merchantId, new Date(event.data.openedAt))
    : exchangeJobs.fundAccount(event.data.merchantId, null);
}

/**
 * What a fact does to the exchange's `exchange.advance` job: due when the fact happened (at once)
 * when it leaves a step to take, deleted when nothing is left (completed; failed or expired with
 * its day freed, which the job records last), untouched by facts that need nothing (a settled
 * refund may arrive while the job still frees the day). A replay thus schedules only the
 * exchanges with something left to do.
 */
function advanceFor(event: ExchangeEvent): JobChange | undefined {
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
      return exchangeJobs.advance(exchangeId, new Date(event.data.requestedAt));
    case 'ExchangeCompleted':
    case 'ExchangeDayReleased':
      return exchangeJobs.advance(exchangeId, null);
    case 'ExchangeRefunded':
      return undefined;
  }
}
