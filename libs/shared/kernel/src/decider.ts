/**
 * An aggregate as a decider (after emmett): pure `decide` and `evolve` over plain types.
 * `decide` throws a DomainError to refuse a command.
 */
export interface Decider<State, Command, Event> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  decide: (command: Command, state: State) => Event[];
}

export const fold = <State, Event>(
  evolve: (state: State, event: Event) => State,
  initial: State,
  events: readonly Event[],
): State => events.reduce(evolve, initial);

export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
