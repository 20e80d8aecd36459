import { createHash } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The `evt_` id of the `index`-th integration event made from one recorded event. Derived, not
 * random: when the forwarder publishes a recorded event again (after a crash or a failed
 * publish), the integration event keeps its id and consumers and webhook receivers deduplicate
 * on it. Shaped like a ULID (10 characters of milliseconds, then 16 of a hash), so ids sort by
 * the time the fact was recorded.
 */
export function integrationEventId(recorded: { id: string; createdAt: Date }, index = 0): string {
  let time = '';
  for (let t = recorded.createdAt.getTime(), i = 0; i < 10; i++, t = Math.floor(t / 32)) {
    time = CROCKFORD[t % 32] + time;
  }
  const digest = createHash('sha256').update(`${recorded.id}:${index}`).digest();
  let rest = '';
  for (let i = 0; i < 16; i++) rest += CROCKFORD[digest[i]! % 32];
  return `evt_${time}${rest}`;
}
