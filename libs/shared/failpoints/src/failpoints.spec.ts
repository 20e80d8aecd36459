import {
  armFailpoints,
  disarmFailpoints,
  failpoint,
  FailpointError,
  parseFailpoints,
} from './failpoints';

describe('failpoints', () => {
  afterEach(() => disarmFailpoints());

  it('do nothing unless armed', () => {
    expect(() => failpoint('payments.create.after_append')).not.toThrow();
  });

  it('throw a FailpointError naming the point when armed to throw, and only that point', () => {
    armFailpoints({ 'payments.create.after_append': 'throw' });
    expect(() => failpoint('payments.create.before_append')).not.toThrow();
    let thrown: unknown;
    try {
      failpoint('payments.create.after_append');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(FailpointError);
    expect((thrown as FailpointError).failpoint).toBe('payments.create.after_append');
  });

  it('kill the process with SIGKILL when armed to crash', () => {
    const kill = jest.spyOn(process, 'kill').mockImplementation(() => true);
    try {
      armFailpoints({ 'idempotency.after_claim': 'crash' });
      // The kill is asynchronous for the process itself; nothing after it may run normally.
      expect(() => failpoint('idempotency.after_claim')).toThrow(FailpointError);
      expect(kill).toHaveBeenCalledWith(process.pid, 'SIGKILL');
    } finally {
      kill.mockRestore();
    }
  });

  it('are disarmed all at once', () => {
    armFailpoints({ 'refunds.after_hold': 'throw' });
    disarmFailpoints();
    expect(() => failpoint('refunds.after_hold')).not.toThrow();
  });

  describe('parseFailpoints', () => {
    it('reads name=action pairs', () => {
      expect(parseFailpoints(' refunds.after_hold=crash , idempotency.after_claim=throw')).toEqual({
        settings: { 'refunds.after_hold': 'crash', 'idempotency.after_claim': 'throw' },
        problems: [],
      });
    });

    it('reports unknown points and actions without arming them', () => {
      const { settings, problems } = parseFailpoints(
        'nope=crash,refunds.after_hold=explode,refunds.after_request',
      );
      expect(settings).toEqual({});
      expect(problems).toHaveLength(3);
      expect(problems[0]).toContain('unknown point "nope"');
      expect(problems[1]).toContain('refunds.after_hold=explode');
    });
  });
});
