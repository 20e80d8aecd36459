import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE } from '@xaalis/config';
import type { ProjectionRunner } from '@xaalis/database';
import { handleCommand, type EventStore } from '@xaalis/event-store';
import {
  exists,
  paymentDecider,
  paymentStream,
  type Payment,
  type PaymentCommand,
} from '@xaalis/payments-domain';
import { notFound } from '@xaalis/kernel';
import { PAYMENTS_PROJECTION_RUNNER } from './payments.tokens';

export interface CommandOutcome {
  payment: Payment;
  /** Whether this command appended anything (false: an idempotent repeat). */
  changed: boolean;
}

/**
 * Runs a command on a payment's stream (read, fold, decide, append with the expected revision,
 * retry on conflict), then catches the read model up to the append before answering, so the
 * caller's next read sees its own write.
 */
@Injectable()
export class PaymentCommands {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PAYMENTS_PROJECTION_RUNNER) private readonly projections: ProjectionRunner,
  ) {}

  async run(paymentId: string, command: PaymentCommand): Promise<CommandOutcome> {
    const result = await handleCommand(
      this.store,
      paymentStream(paymentId),
      paymentDecider,
      command,
    );
    if (!exists(result.state)) throw notFound('payment');
    if (result.events.length > 0) await this.projections.catchUpTo(result.position);
    return { payment: result.state, changed: result.events.length > 0 };
  }
}
