import type { Decider } from '@xaalis/kernel';
import { decideAndAppend, type Outcome } from './decide-and-append';
import type { EventStore, NewEvent, StreamCreation } from './event-store';
import type { FoldCache } from './fold-cache';
import { StreamTurns } from './stream-turns';

/** A decider's events are plain `{ type, data }` objects, stored as they are. */
export interface DeciderEvent {
  type: string;
  data: unknown;
}

export interface HandleCommandOptions {
  /**
   * Extra attempts after a ConcurrencyError (another process's writer got there first); unset,
   * `DEFAULT_MAX_RETRIES` of decide-and-append.ts, with its backoff.
   */
  maxRetries?: number;
  /**
   * The stream is new but for a repeat of this very command: its id was fixed by the caller (an
   * idempotency key fixes a created payment's). Then nothing is read: the command is decided on
   * the initial state and appended expecting no stream, in one round trip. A conflict on that
   * append means the stream is there after all, the repeat: it is read at once and the command
   * decided again on what it holds, as any command's would be, without counting as a retry.
   */
  newStream?: boolean;
}

export interface CachedCommandOptions<State> extends HandleCommandOptions {
  /**
   * What this process knows of a long stream (an agent wallet takes every payout it accepts), so
   * that a command neither reads nor folds it all again. The command is decided on the cached
   * state and appended with the cached revision: one round trip. Only when that append conflicts
   * (another process wrote), or the decision on the cached state is to refuse or to do nothing
   * (which must hold on the stream as it is), is the stream read, from the cached revision on.
   */
  cache?: FoldCache<State>;
}

/** A new stream a command's events create, as its `creating` decides it (ids not yet given). */
export interface DecidedCreation {
  streamName: string;
  events: DeciderEvent[];
}

export interface CommandOptions<State, Event> extends CachedCommandOptions<State> {
  /**
   * The new streams a command's events create (a wallet's acceptance of a payout creates the
   * payout's), appended with them (`AppendOptions.creating`): in one transaction where the store
   * has one. Called again at every attempt, so it must be pure.
   */
  creating?: (events: Event[]) => DecidedCreation[];
}

/** Per store, so two stores in one process (two services in one test) act as two processes. */
const turnsByStore = new WeakMap<EventStore, StreamTurns>();

export interface HandleCommandResult<State> {
  /** What was appended, ids included (empty when the decision was to do nothing). */
  events: NewEvent[];
  /** The state after those events. */
  state: State;
  /** The streams those events created (`creating`), as appended. */
  created: StreamCreation[];
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
 * untouched and nothing is appended. A stream the caller knows to be new (`newStream`) is not
 * read first: one round trip, the append, makes it.
 *
 * Commands on one stream in this process take turns (StreamTurns), so a busy stream (a merchant
 * issuing keys, a payment refunded many times at once) costs waiting, not conflicts. Conflicts
 * with other processes are retried after jittered waits; when they outlast every retry the
 * answer is `unavailable` with `retry_after` (503 and `Retry-After` at the edge), nothing changed.
 */
export async function handleCommand<State, Command, Event extends DeciderEvent>(
  store: EventStore,
  streamName: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  options: CommandOptions<NoInfer<State>, NoInfer<Event>> = {},
): Promise<HandleCommandResult<State>> {
  let turns = turnsByStore.get(store);
  if (turns === undefined) {
    turns = new StreamTurns();
    turnsByStore.set(store, turns);
  }
  if (options.cache === undefined) {
    return turns.run(streamName, () =>
      settled(decideAndAppend(store, streamName, decider, [command], options)),
    );
  }
  // A cached stream's commands that wait for the same turn are decided together (see `cache`).
  return turns.runGrouped(streamName, command, (commands) =>
    decideAndAppend(store, streamName, decider, commands, options),
  );
}

async function settled<State>(
  outcomes: Promise<Outcome<State>[]>,
): Promise<HandleCommandResult<State>> {
  const [outcome] = await outcomes;
  if (!outcome!.ok) throw outcome!.error;
  return outcome!.result;
}
