import type {
  AggregateStreamOptions,
  AggregateStreamResult,
  EventStore,
  StoredFact,
} from './event-store';

/** Folds stored events in order, skipping those `asEvent` does not know. */
export function foldFacts<State, Event>(
  facts: readonly StoredFact[],
  options: AggregateStreamOptions<State, Event>,
): State {
  let state = options.initialState();
  for (const fact of facts) {
    const event = options.asEvent(fact);
    if (event !== undefined) state = options.evolve(state, event);
  }
  return state;
}

/** `aggregateStream` through `readStream`, for adapters with no narrower read. */
export async function aggregateByReading<State, Event>(
  store: Pick<EventStore, 'readStream'>,
  streamName: string,
  options: AggregateStreamOptions<State, Event>,
): Promise<AggregateStreamResult<State>> {
  const { events, currentRevision } = await store.readStream(streamName);
  return { state: foldFacts(events, options), currentRevision };
}
