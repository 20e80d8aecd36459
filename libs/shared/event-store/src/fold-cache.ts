import type { EventStore, RecordedEvent, StoredFact } from './event-store';

/** A stream's state folded up to `revision`, and the position of the event at that revision. */
export interface FoldedStream<State> {
  state: State;
  revision: bigint;
  position: string;
}

/**
 * What this process last folded of long-lived streams (an agent wallet's takes every payout it
 * accepts), so that a command or a read folds only the events after it instead of the whole
 * stream again. States must be immutable values (a decider's `evolve` returns new ones), since a
 * cached state is evolved again by whoever reads it next. Bounded: the least recently used
 * stream goes first.
 */
export class FoldCache<State> {
  private readonly entries = new Map<string, FoldedStream<State>>();

  constructor(private readonly capacity = 10_000) {}

  get(stream: string): FoldedStream<State> | undefined {
    const entry = this.entries.get(stream);
    if (entry === undefined) return undefined;
    this.entries.delete(stream);
    this.entries.set(stream, entry);
    return entry;
  }

  /** Keeps the newer of what is cached and `folded`: two readers may finish in any order. */
  set(stream: string, folded: FoldedStream<State>): void {
    const current = this.entries.get(stream);
    if (current !== undefined && current.revision >= folded.revision) return;
    this.entries.delete(stream);
    this.entries.set(stream, folded);
    if (this.entries.size > this.capacity) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
  }

  delete(stream: string): void {
    this.entries.delete(stream);
  }
}

export interface FoldOptions<State, Event> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  /** The fold's event for a stored one, or undefined to skip it (a type the fold does not know). */
  asEvent: (stored: StoredFact) => Event | undefined;
}

/**
 * The stream folded up to now: what `cache` holds of it plus the events after (one read from
 * that revision on, usually empty), or the whole stream without a cache. Undefined when the
 * stream does not exist.
 */
export async function foldStream<State, Event>(
  store: EventStore,
  stream: string,
  fold: FoldOptions<State, Event>,
  cache?: FoldCache<State>,
): Promise<FoldedStream<State> | undefined> {
  const cached = cache?.get(stream);
  const { events, currentRevision } = await store.readStream(
    stream,
    cached ? { fromRevision: cached.revision + 1n } : undefined,
  );
  if (currentRevision === undefined) return undefined;
  // Someone (a command, another read) folded as far meanwhile: its state is the one to share, so
  // that a state is evolved once (an older one evolved again copies what it holds).
  const meanwhile = cache?.get(stream);
  if (meanwhile !== undefined && meanwhile.revision >= currentRevision) return meanwhile;
  let state = cached?.state ?? fold.initialState();
  for (const recorded of events) {
    const event = fold.asEvent(recorded);
    if (event !== undefined) state = fold.evolve(state, event);
  }
  const last = events[events.length - 1];
  const folded = { state, revision: currentRevision, position: last?.position ?? cached!.position };
  cache?.set(stream, folded);
  return folded;
}

/**
 * The stream folded up to `recorded`, that event included: the object an integration event shows
 * "right after this event", the same on every republish. From `cache` when it holds the stream at
 * exactly that revision (this process appended the event and nothing came after: the usual case
 * for a forwarder following its own context's commands), else read from the store up to it.
 */
export async function foldStreamTo<State, Event>(
  store: EventStore,
  recorded: Pick<RecordedEvent, 'streamName' | 'revision'>,
  fold: FoldOptions<State, Event>,
  cache?: FoldCache<State>,
): Promise<State> {
  const cached = cache?.get(recorded.streamName);
  if (cached?.revision === recorded.revision) return cached.state;
  const { events } = await store.readStream(recorded.streamName, {
    maxCount: Number(recorded.revision) + 1,
  });
  let state = fold.initialState();
  for (const stored of events) {
    const event = fold.asEvent(stored);
    if (event !== undefined) state = fold.evolve(state, event);
  }
  return state;
}
