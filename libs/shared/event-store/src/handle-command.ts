import { randomUUID } from 'node:crypto';
import { DomainError, fold, type Decider } from '@xaalis/kernel';
import {
  ConcurrencyError,
  type EventStore,
  type NewEvent,
  type StreamCreation,
} from './event-store';
import { foldStream, type FoldCache } from './fold-cache';
import { StreamTurns, type GroupOutcome } from './stream-turns';

/** A decider's events are plain `{ type, data }` objects, stored as they are. */
export interface DeciderEvent {
  type: string;
  data: unknown;
}

export interface HandleCommandOptions {
  /** Extra attempts after a ConcurrencyError (another process's writer got there first). */
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

/**
 * Retries after a conflict, each after a jittered wait (full jitter: anywhere up to a bound that
 * doubles from 5 ms to 320 ms), so that writers of other processes colliding on one stream spread
 * out instead of colliding again: at most about 1.3 s in all.
 */
export const DEFAULT_MAX_RETRIES = 8;
const FIRST_BACKOFF_MS = 5;
const MAX_BACKOFF_MS = 320;

/** Seconds a client is told to wait (`Retry-After`) when conflicts outlasted every retry. */
const RETRY_AFTER_SECONDS = 1;

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

type Outcome<State> = GroupOutcome<HandleCommandResult<State>>;

async function settled<State>(
  outcomes: Promise<Outcome<State>[]>,
): Promise<HandleCommandResult<State>> {
  const [outcome] = await outcomes;
  if (!outcome!.ok) throw outcome!.error;
  return outcome!.result;
}

/**
 * Decides `commands` in order, each on the state the ones before it left, and appends what they
 * decided in one append; one outcome per command. A refusal is that command's alone: the others
 * are still decided and appended. On the cached state, a refusal or a no-op is not trusted: the
 * stream is read (from the cached revision on) and every command still open decided again.
 */
async function decideAndAppend<State, Command, Event extends DeciderEvent>(
  store: EventStore,
  streamName: string,
  decider: Decider<State, Command, Event>,
  commands: Command[],
  options: CommandOptions<State, Event>,
): Promise<Outcome<State>[]> {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const cache = options.cache;
  const outcomes: Array<Outcome<State> | undefined> = commands.map(() => undefined);
  let trustCache = cache?.get(streamName) !== undefined;
  let assumeNew = options.newStream === true && !trustCache;
  let attempt = 0;
  try {
    for (;;) {
      const {
        state: base,
        currentRevision,
        position,
      } = trustCache
        ? fromCache(cache!, streamName)
        : await readFolded(store, streamName, decider, assumeNew, cache);
      let state = base;
      const decided: Array<{
        index: number;
        events: NewEvent[];
        state: State;
        created: StreamCreation[];
      }> = [];
      const unchanged: Array<{ index: number; state: State }> = [];
      let untrusted = false;
      for (const [index, command] of commands.entries()) {
        if (outcomes[index] !== undefined) continue;
        let events: Event[];
        try {
          events = decider.decide(command, state);
        } catch (error) {
          if (trustCache) untrusted = true;
          else outcomes[index] = { ok: false, error };
          continue;
        }
        if (events.length === 0) {
          if (trustCache) untrusted = true;
          else unchanged.push({ index, state });
          continue;
        }
        state = fold(decider.evolve, state, events);
        const created = (options.creating?.(events) ?? []).map((creation) => ({
          streamName: creation.streamName,
          events: creation.events.map(withId),
        }));
        decided.push({ index, events: events.map(withId), state, created });
      }
      if (untrusted) {
        trustCache = false;
        continue;
      }
      for (const { index, state: after } of unchanged) {
        if (currentRevision === undefined || position === undefined) {
          outcomes[index] = {
            ok: false,
            error: new Error(
              `${streamName}: the command changed nothing on a stream that does not exist`,
            ),
          };
        } else {
          outcomes[index] = {
            ok: true,
            result: {
              events: [],
              state: after,
              created: [],
              nextExpectedRevision: currentRevision,
              position,
            },
          };
        }
      }
      if (decided.length === 0) return outcomes as Outcome<State>[];

      try {
        const creating = decided.flatMap(({ created }) => created);
        const appended = await store.appendToStream(
          streamName,
          decided.flatMap(({ events }) => events),
          {
            expectedRevision: currentRevision ?? 'no_stream',
            ...(creating.length > 0 && { creating }),
          },
        );
        cache?.set(streamName, {
          state,
          revision: appended.nextExpectedRevision,
          position: appended.position,
        });
        for (const { index, events, state: after, created } of decided) {
          outcomes[index] = {
            ok: true,
            result: {
              events,
              state: after,
              created,
              nextExpectedRevision: appended.nextExpectedRevision,
              position: appended.position,
            },
          };
        }
        return outcomes as Outcome<State>[];
      } catch (error) {
        // A stream it was to create exists: not this stream's conflict, and no retry mends it.
        if (!(error instanceof ConcurrencyError) || error.streamName !== streamName) throw error;
        if (trustCache) {
          // Another process wrote since: read what it wrote, not a conflict with a live writer.
          trustCache = false;
          continue;
        }
        if (assumeNew) {
          // The stream exists: a repeat of the command, not a race with another writer.
          assumeNew = false;
          continue;
        }
        if (attempt >= maxRetries) throw stillConflicting(streamName);
        await sleep(Math.random() * Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** attempt));
        attempt++;
      }
    }
  } catch (error) {
    // What failed (the store, or conflicts past every retry) failed every command still open.
    return outcomes.map((outcome) => outcome ?? { ok: false, error });
  }
}

const withId = (event: DeciderEvent): NewEvent => ({
  id: randomUUID(),
  type: event.type,
  data: event.data,
});

interface Folded<State> {
  state: State;
  /** undefined when the stream does not exist. */
  currentRevision: bigint | undefined;
  /** The position of the stream's last event. */
  position: string | undefined;
}

function fromCache<State>(cache: FoldCache<State>, streamName: string): Folded<State> {
  const { state, revision, position } = cache.get(streamName)!;
  return { state, currentRevision: revision, position };
}

/**
 * The stream as it is: read whole, or from what `cache` holds of it (`foldStream`). A stream the
 * caller knows to be new is not read.
 */
async function readFolded<State, Command, Event extends DeciderEvent>(
  store: EventStore,
  streamName: string,
  decider: Decider<State, Command, Event>,
  assumeNew: boolean,
  cache: FoldCache<State> | undefined,
): Promise<Folded<State>> {
  const folded = assumeNew
    ? undefined
    : await foldStream(
        store,
        streamName,
        {
          initialState: decider.initialState,
          evolve: decider.evolve,
          // The stream holds only this decider's events: it is the only writer of its streams.
          asEvent: (stored) => ({ type: stored.type, data: stored.data }) as Event,
        },
        cache,
      );
  return folded === undefined
    ? { state: decider.initialState(), currentRevision: undefined, position: undefined }
    : { state: folded.state, currentRevision: folded.revision, position: folded.position };
}

function stillConflicting(streamName: string): DomainError {
  const kind = streamName.slice(0, streamName.indexOf('-')) || 'object';
  return new DomainError(
    'unavailable',
    `The ${kind} is being changed by other requests at this moment: nothing was changed. Retry shortly.`,
    { retry_after: RETRY_AFTER_SECONDS },
  );
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
