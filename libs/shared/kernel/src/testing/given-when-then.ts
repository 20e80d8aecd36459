import { type Decider, fold } from '../decider';
import { DomainError, type ErrorCode } from '../errors';

/** What a command comes to: the events decided, or the code of the refusal. */
export type Outcome<Event> = Event[] | ErrorCode;

/**
 * The decider specs' given / when / then (STYLE 2), one for every aggregate:
 *
 *   const { given } = givenWhenThen(paymentDecider);
 *   given(newPayment()).when(expirePayment()).then([paymentExpired()]);
 *   given([]).when(createPayment({ amount: 0 })).thenRefuses('validation_error');
 *
 * `then` compares the whole list, so a repeat that decides nothing reads `.then([])`;
 * `thenRefuses` returns the error, for a look at its message or details; `outcome` is either,
 * for tables of commands against histories. An error that is not a DomainError fails the test
 * as itself: only a refusal is an answer.
 */
export function givenWhenThen<State, Command, Event>(decider: Decider<State, Command, Event>) {
  const stateOf = (history: readonly Event[]): State =>
    fold(decider.evolve, decider.initialState(), history);

  const given = (history: readonly Event[]) => ({
    when: (command: Command) => {
      const attempt = (): Event[] | DomainError => {
        try {
          return decider.decide(command, stateOf(history));
        } catch (error) {
          if (error instanceof DomainError) return error;
          throw error;
        }
      };
      return {
        then: (expected: Event[]): void => {
          expect(attempt()).toEqual(expected);
        },
        thenRefuses: (code: ErrorCode): DomainError => {
          const refusal = attempt();
          expect(refusal).toBeInstanceOf(DomainError);
          expect((refusal as DomainError).code).toBe(code);
          return refusal as DomainError;
        },
        outcome: (): Outcome<Event> => {
          const outcome = attempt();
          return outcome instanceof DomainError ? outcome.code : outcome;
        },
      };
    },
  });

  return { given, stateOf };
}
