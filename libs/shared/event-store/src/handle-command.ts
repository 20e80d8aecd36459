import { randomUUID } from 'node:crypto';
import { fold, type Decider } from '@xaalis/kernel';
import { ConcurrencyError, type EventStore, type NewEvent } from './event-store';

/** A decider's events are plain `{ type, data }` objects, stored as they are. */
export interface DeciderEvent {
  type: string;
  data: unknown;
}

export interface HandleCommandOptions {
  /** Extra attempts after a ConcurrencyError (another writer got there first). Default 3. */
  maxRetries?: number;
}

export interface HandleCommandResult<State> {
  /** What was appended, ids included (empty when the decision was to do nothing). */
  events: NewEvent[];
  /** The state after those events. */
  state: State;
  /** The stream's revision now: the expected revision of the next append. */
  nextExpectedRevision: bigint;
  /**
   * The position of the last appended event, or of the stream's last event when nothing was
   * appended: what a caller waits for to read its own write from a projection.
   */
  position: string;
}

/**
 * Read the stream, fold it with `evolve` from `initialState`, `decide`, append with the revision
 * that was read (`no_stream` for a new stream), and on a ConcurrencyError do it all again on the
 * fresh stream (after emmett's handleCommand). A DomainError from `decide` goes to the caller
 * untouched and nothing is appended.
 */
export async function handleCommand<State, Command, Event extends DeciderEvent>(
  store: EventStore,
  streamName: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  options: HandleCommandOptions = {},
): Promise<HandleCommandResult<State>> {
  const maxRetries = options.maxRetries ?? 3;
  for (let attempt = 0; ; attempt++) {
    const { events: recorded, currentRevision } = await store.readStream(streamName);
    // The stream holds only this decider's events: it is the only writer of its streams.
    const history = recorded.map((event) => ({ type: event.type, data: event.data }) as Event);
    const state = fold(decider.evolve, decider.initialState(), history);
    const decided = decider.decide(command, state);

    if (decided.length === 0) {
      const last = recorded[recorded.length - 1];
      if (currentRevision === undefined || last === undefined) {
        throw new Error(
          `${streamName}: the command changed nothing on a stream that does not exist`,
        );
      }
      return { events: [], state, nextExpectedRevision: currentRevision, position: last.position };
    }

    const events: NewEvent[] = decided.map((event) => ({
      id: randomUUID(),
      type: event.type,
      data: event.data,
    }));
    try {
      const appended = await store.appendToStream(streamName, events, {
        expectedRevision: currentRevision ?? 'no_stream',
      });
      return {
        events,
        state: fold(decider.evolve, state, decided),
        nextExpectedRevision: appended.nextExpectedRevision,
        position: appended.position,
      };
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= maxRetries) throw error;
    }
  }
}
