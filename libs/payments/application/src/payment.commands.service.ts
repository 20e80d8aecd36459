import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE } from '@xaalis/config';
import { handleCommand, type EventStore } from '@xaalis/event-store';
import {
  exists,
  paymentDecider,
  paymentStream,
  type Payment,
  type CreatePayment,
  type PaymentCommand,
} from '@xaalis/payments-domain';
import { notFound } from '@xaalis/kernel';

export interface CommandOutcome {
  payment: Payment;
  /** Whether this command appended anything (false: an idempotent repeat). */
  changed: boolean;
}

/**
 * Runs a command on a payment's stream: read, fold, decide, append with the expected revision,
 * retry on conflict. Reads of one payment come from its stream, so nothing waits here for the
 * read model (lists and jobs follow it through the projection runner).
 */
@Injectable()
export class PaymentCommands {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async run(paymentId: string, command: PaymentCommand): Promise<CommandOutcome> {
    if (command.type === 'CreatePayment') return this.create(paymentId, command);
    const result = await handleCommand(
      this.store,
      paymentStream(paymentId),
      paymentDecider,
      command,
    );
    if (!exists(result.state)) throw notFound('payment');
    return { payment: result.state, changed: result.events.length > 0 };
  }

  /**
   * A new payment's stream cannot exist (its id was made a moment ago), so the read of
   * handleCommand is skipped: decide on the initial state and append expecting no stream, the
   * whole create in one round trip and one commit.
   */
  private async create(paymentId: string, command: CreatePayment): Promise<CommandOutcome> {
    const decided = paymentDecider.decide(command, paymentDecider.initialState());
    await this.store.appendToStream(
      paymentStream(paymentId),
      decided.map((event) => ({ id: randomUUID(), type: event.type, data: event.data })),
      { expectedRevision: 'no_stream' },
    );
    const payment = decided.reduce(paymentDecider.evolve, paymentDecider.initialState());
    if (!exists(payment)) throw new Error('CreatePayment decided no PaymentCreated');
    return { payment, changed: true };
  }
}
