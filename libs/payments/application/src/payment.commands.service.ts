import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE } from '@xaalis/config';
import { handleCommand, type EventStore, type HandleCommandOptions } from '@xaalis/event-store';
import { failpoint } from '@xaalis/failpoints';
import {
  exists,
  paymentDecider,
  paymentStream,
  type Payment,
  type CreatePayment,
  type PaymentCommand,
} from '@xaalis/payments-domain';
import { notFound } from '@xaalis/kernel';

export interface RunOptions {
  /**
   * Decide nothing when this holds of the payment as read: for a caller that must do something
   * outside the stream first (ask a provider) in that case only, and otherwise wants the command
   * decided on the same read.
   */
  unless?: (payment: Payment) => boolean;
}

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
  /** The position of this process's latest append: lists catch up to it (read-your-writes). */
  lastPosition: string | null = null;

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  private noteAppended(position: string): void {
    if (this.lastPosition === null || position > this.lastPosition) this.lastPosition = position;
  }

  async run(
    paymentId: string,
    command: PaymentCommand,
    options: RunOptions = {},
  ): Promise<CommandOutcome> {
    if (command.type === 'CreatePayment') return this.create(paymentId, command);
    const { unless } = options;
    if (unless === undefined) return this.handle(paymentId, command);
    const decider: typeof paymentDecider = {
      ...paymentDecider,
      decide: (held, state) =>
        exists(state) && unless(state) ? [] : paymentDecider.decide(held, state),
    };
    return this.handle(paymentId, command, {}, decider);
  }

  /**
   * A new payment's stream does not exist but for a retry of this very create (its id is fixed by
   * the idempotency key), so it is not read: the whole create is one round trip and one commit. A
   * retry whose first run appended finds the stream there, and the payment it made is the answer.
   */
  private async create(paymentId: string, command: CreatePayment): Promise<CommandOutcome> {
    // Deciding is pure: a crash just before it leaves what a crash just after it would.
    failpoint('payments.create.before_append');
    const outcome = await this.handle(paymentId, command, { newStream: true });
    if (outcome.changed) failpoint('payments.create.after_append');
    return outcome;
  }

  private async handle(
    paymentId: string,
    command: PaymentCommand,
    options?: HandleCommandOptions,
    decider = paymentDecider,
  ): Promise<CommandOutcome> {
    const result = await handleCommand(
      this.store,
      paymentStream(paymentId),
      decider,
      command,
      options,
    );
    if (!exists(result.state)) throw notFound('payment');
    if (result.events.length > 0) this.noteAppended(result.position);
    return { payment: result.state, changed: result.events.length > 0 };
  }
}
