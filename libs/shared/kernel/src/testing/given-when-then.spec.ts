import { assertNever, type Decider } from '../decider';
import { invalidState } from '../errors';
import { givenWhenThen } from './given-when-then';

// A counter that opens once and counts up to 2: enough to see events, refusals and other throws.
type CounterEvent = { type: 'Opened' } | { type: 'Counted' };
type CounterCommand = { type: 'Open' } | { type: 'Count' } | { type: 'Break' };

const counter: Decider<number | null, CounterCommand, CounterEvent> = {
  initialState: () => null,
  evolve: (count, event) => (event.type === 'Opened' ? 0 : (count ?? 0) + 1),
  decide: (command, count) => {
    switch (command.type) {
      case 'Open':
        return count === null ? [{ type: 'Opened' }] : [];
      case 'Count':
        if (count === null || count >= 2) throw invalidState('The counter is full.');
        return [{ type: 'Counted' }];
      case 'Break':
        throw new TypeError('not a refusal');
      default:
        return assertNever(command);
    }
  },
};

const { given, stateOf } = givenWhenThen(counter);
const opened: CounterEvent = { type: 'Opened' };
const counted: CounterEvent = { type: 'Counted' };

describe('givenWhenThen', () => {
  it('then: passes on the events decided, fails on others', () => {
    given([]).when({ type: 'Open' }).then([opened]);
    given([opened]).when({ type: 'Open' }).then([]);
    expect(() => given([opened]).when({ type: 'Open' }).then([opened])).toThrow();
  });

  it('then: fails on a refusal', () => {
    expect(() => given([]).when({ type: 'Count' }).then([counted])).toThrow();
  });

  it('thenRefuses: passes on a refusal with that code and returns it', () => {
    const error = given([opened, counted, counted])
      .when({ type: 'Count' })
      .thenRefuses('invalid_state');
    expect(error.message).toBe('The counter is full.');
  });

  it('thenRefuses: fails on events and on another code', () => {
    expect(() => given([opened]).when({ type: 'Count' }).thenRefuses('invalid_state')).toThrow();
    expect(() => given([]).when({ type: 'Count' }).thenRefuses('not_found')).toThrow();
  });

  it('outcome: the events, or the code of the refusal', () => {
    expect(given([opened]).when({ type: 'Count' }).outcome()).toEqual([counted]);
    expect(given([]).when({ type: 'Count' }).outcome()).toBe('invalid_state');
  });

  it('lets an error that is not a refusal fail the test as itself', () => {
    const breaks = given([]).when({ type: 'Break' });
    expect(() => breaks.thenRefuses('invalid_state')).toThrow(TypeError);
    expect(() => breaks.outcome()).toThrow(TypeError);
  });

  it('stateOf folds the history from the initial state', () => {
    expect(stateOf([])).toBeNull();
    expect(stateOf([opened, counted, counted])).toBe(2);
  });
});
