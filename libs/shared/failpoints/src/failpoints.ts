/**
 * Failpoints: named places in the code where a test makes the process fail, to prove that what
 * it was doing survives a crash at exactly that step (issue 16). Off unless a test arms them,
 * through `XAALIS_FAILPOINTS` (`name=crash,name=throw`, read by the config) or `armFailpoints`
 * in-process. Disarmed, `failpoint()` is one size check on an empty map.
 *
 * - `crash`: the process kills itself with SIGKILL, as `kill -9` or the OOM killer would: no
 *   `finally`, no shutdown hook, no flush.
 * - `throw`: a FailpointError, for in-process tests of what a failed step leaves behind.
 */
export const FAILPOINTS = [
  /** An idempotency key was claimed; the handler has not run. */
  'idempotency.after_claim',
  /** The handler's answer is built; the key's outcome is not stored yet. */
  'idempotency.before_complete',
  /** A payment's creation is about to be decided and appended; nothing is appended yet. */
  'payments.create.before_append',
  /** A payment's first events are appended; nothing has answered yet. */
  'payments.create.after_append',
  /** A refund is recorded on its payment; its amount is not held yet. */
  'refunds.after_request',
  /** A refund's amount is held in the ledger; nothing has answered yet. */
  'refunds.after_hold',
  /** An identity command (API key, merchant, account) is appended; the read model has not caught up. */
  'identity.after_append',
  /** A payments integration event is read from its stream; it is not published yet. */
  'payments.forwarder.before_publish',
  /** A payout's amount and fee are held; the wallet has not accepted it yet. */
  'payouts.accept.after_hold',
  /** The wallet accepted a payout; its own stream is not created yet. */
  'payouts.accept.after_wallet_append',
  /** A payout is recorded `processing`; the provider has not been called. */
  'payouts.send.before_provider_call',
  /** The provider answered a payout; its answer is not recorded yet. */
  'payouts.send.after_provider_call',
  /** An invoice's payment attempt is recorded on its subscription; the payment is not made yet. */
  'billing.checkout.after_attempt',
  /** An exchange's quote is redeemed and its amount reserved on the phone's day; no exchange yet. */
  'exchange.create.after_reserve',
  /** An exchange is created; its customer's payment is not made yet. */
  'exchange.create.after_exchange',
  /** The customer paid an exchange; its payout is about to be requested, and is not yet. */
  'exchange.advance.before_payout',
] as const;

export type FailpointName = (typeof FAILPOINTS)[number];
export type FailpointAction = 'crash' | 'throw';
export type FailpointSettings = Partial<Record<FailpointName, FailpointAction>>;

export class FailpointError extends Error {
  constructor(readonly failpoint: FailpointName) {
    super(`failpoint ${failpoint}`);
    this.name = 'FailpointError';
  }
}

const armed = new Map<FailpointName, FailpointAction>();

/** Where a test may make this process fail. Does nothing unless this point is armed. */
export function failpoint(name: FailpointName): void {
  if (armed.size === 0) return;
  const action = armed.get(name);
  if (action === undefined) return;
  if (action === 'crash') process.kill(process.pid, 'SIGKILL');
  throw new FailpointError(name);
}

/** Arms these points (others keep their setting). */
export function armFailpoints(settings: FailpointSettings): void {
  for (const [name, action] of Object.entries(settings) as Array<
    [FailpointName, FailpointAction]
  >) {
    armed.set(name, action);
  }
}

export function disarmFailpoints(): void {
  armed.clear();
}

/**
 * `name=action,…` as `XAALIS_FAILPOINTS` carries it. Problems are returned, not thrown, so the
 * config can report them with every other bad value.
 */
export function parseFailpoints(text: string): { settings: FailpointSettings; problems: string[] } {
  const settings: FailpointSettings = {};
  const problems: string[] = [];
  for (const item of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [name, action, ...rest] = item.split('=').map((part) => part.trim());
    if (!isFailpointName(name)) {
      problems.push(
        `XAALIS_FAILPOINTS names an unknown point "${name}" (known: ${FAILPOINTS.join(', ')})`,
      );
    } else if ((action !== 'crash' && action !== 'throw') || rest.length > 0) {
      problems.push(`XAALIS_FAILPOINTS: "${item}" must be <point>=crash or <point>=throw`);
    } else {
      settings[name] = action;
    }
  }
  return { settings, problems };
}

function isFailpointName(name: string | undefined): name is FailpointName {
  return (FAILPOINTS as readonly string[]).includes(name ?? '');
}
