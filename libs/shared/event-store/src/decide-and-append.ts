import { randomUUID } from 'node:crypto';
import { DomainError, fold, type Decider } from '@xaalis/kernel';
import {
  ConcurrencyError,
  type EventStore,
  type NewEvent,
  type StreamCreation,
} from './event-store';
import { foldStream, type FoldCache } from './fold-cache';
import type { CommandOptions, DeciderEvent, HandleCommandResult } from './handle-command';
import { sleep } from './read-pacer';
import type { GroupOutcome } from './stream-turns';

/**
 * Retries after a conflict, each after a jittered wait (full jitter: anywhere up to a bound that
 * doubles from 5 ms to 320 ms), so that writers of other processes colliding on one stream spread
 * out instead of colliding again: at most about 1.3 s in all.
 */
const DEFAULT_MAX_RETRIES = 8;
const FIRST_BACKOFF_MS = 5;
const MAX_BACKOFF_MS = 320;

/** Seconds a client is told to wait (`Retry-After`) when conflicts outlasted every retry. */
const RETRY_AFTER_SECONDS = 1;

export type Outcome<State> = GroupOutcome<HandleCommandResult<State>>;

/**
 * Decides `commands` in order, each on the state the ones before it left, and appends what they
 * decided in one append; one outcome per command. A refusal is that command's alone: the others
 * are still decided and appended. On the cached state, a refusal or a no-op is not trusted: the
 * stream is read (from the cached revision on) and every command still open decided again.
 */
export async function decideAndAppend<State, Command, Event extends DeciderEvent>(
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
      const folded = trustCache
        ? fromCache(cache!, streamName)
        : await readFolded(store, streamName, decider, assumeNew, cache);
      const { decided, unchanged, refused } = decideOpen(
        decider,
        commands,
        outcomes,
        folded.state,
        options,
      );
      if (trustCache && (unchanged.length > 0 || refused.length > 0)) {
        trustCache = false;
        continue;
      }
      for (const { index, error } of refused) outcomes[index] = { ok: false, error };
      for (const { index, state } of unchanged) {
        outcomes[index] = unchangedOutcome(streamName, folded, state);
      }
      if (decided.length === 0) return outcomes as Outcome<State>[];

      try {
        const creating = decided.flatMap(({ created }) => created);
        const appended = await store.appendToStream(
          streamName,
          decided.flatMap(({ events }) => events),
          {
            expectedRevision: folded.currentRevision ?? 'no_stream',
            ...(creating.length > 0 && { creating }),
          },
        );
        cache?.set(streamName, {
          state: decided.at(-1)!.state,
          revision: appended.nextExpectedRevision,
          position: appended.position,
        });
        for (const { index, events, state, created } of decided) {
          outcomes[index] = {
            ok: true,
            result: {
              events,
              state,
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

interface Decision<State> {
  /** Commands that decided events, each with the state after them and the streams they create. */
  decided: Array<{ index: number; events: NewEvent[]; state: State; created: StreamCreation[] }>;
  /** Commands that decided to do nothing, with the state they saw. */
  unchanged: Array<{ index: number; state: State }>;
  /** Commands whose decider threw (a DomainError: a refusal), with what it threw. */
  refused: Array<{ index: number; error: unknown }>;
}

/** The commands without an outcome yet, decided in order from `state`, each after the last. */
function decideOpen<State, Command, Event extends DeciderEvent>(
  decider: Decider<State, Command, Event>,
  commands: Command[],
  outcomes: Array<Outcome<State> | undefined>,
  state: State,
  options: CommandOptions<State, Event>,
): Decision<State> {
  const decision: Decision<State> = { decided: [], unchanged: [], refused: [] };
  for (const [index, command] of commands.entries()) {
    if (outcomes[index] !== undefined) continue;
    let events: Event[];
    try {
      events = decider.decide(command, state);
    } catch (error) {
      decision.refused.push({ index, error });
      continue;
    }
    if (events.length === 0) {
      decision.unchanged.push({ index, state });
      continue;
    }
    state = fold(decider.evolve, state, events);
    const created = (options.creating?.(events) ?? []).map((creation) => ({
      streamName: creation.streamName,
      events: creation.events.map(withId),
    }));
    decision.decided.push({ index, events: events.map(withId), state, created });
  }
  return decision;
}

/** A command that decided nothing: the stream as it is, which must exist. */
function unchangedOutcome<State>(
  streamName: string,
  folded: Folded<State>,
  state: State,
): Outcome<State> {
  const { currentRevision, position } = folded;
  if (currentRevision === undefined || position === undefined) {
    return {
      ok: false,
      error: new Error(
        `${streamName}: the command changed nothing on a stream that does not exist`,
      ),
    };
  }
  const result = {
    events: [],
    state,
    created: [],
    nextExpectedRevision: currentRevision,
    position,
  };
  return { ok: true, result };
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
