import { Client, type ClientConfig, type Pool } from 'pg';
import {
  APPEND_CHANNEL,
  appendNotification,
  readAppendNotification,
} from './postgres-append-notification';
import { parsePosition, peek } from './postgres-read-all';
import { mayMatchPrefixes } from './prepare-events';

/**
 * When waitForAppend sees committed events that readAll may not return yet (an older transaction
 * is still open, perhaps one that never touches the event store and so will never notify), it
 * looks again this often.
 */
const PENDING_POLL_MS = 50;
/**
 * At most one NOTIFY per this interval: each is a transaction of its own, and one per append
 * would cost a sequential writer a third of its rate. Other processes' subscribers hear of an
 * append up to this much later; this process's own are woken at once.
 */
const NOTIFY_INTERVAL_MS = 10;
/** Without a LISTEN connection it falls back to polling at this pace... */
const NO_LISTENER_POLL_MS = 500;
/** ...and tries to open one again after this long. */
const LISTENER_RETRY_MS = 5_000;
/** Categories whose last append this process remembers; past this it starts again. */
const MAX_CATEGORIES_REMEMBERED = 1_000;

/**
 * Wakes a waiter for an append at `position`, of streams of these categories (undefined: of any
 * stream, as when another process's notification names none, or '' for every waiter).
 */
type Waiter = (position: string, categories: readonly string[] | undefined) => void;

/**
 * When PostgresEventStore's subscribers read: this process's appends wake its own waiters at once
 * and reach other processes by a coalesced NOTIFY; a waiter sleeps until an append that may be of
 * its streams, or its timeout.
 */
export class AppendWatch {
  private listener: Promise<Client> | undefined;
  private listenerRetryAt = 0;
  private readonly waiters = new Set<Waiter>();
  private closed = false;
  /** Position still to announce, the categories appended to meanwhile, and the announcing loop. */
  private unannounced: string | undefined;
  private readonly unannouncedCategories = new Set<string>();
  private announcing: Promise<void> | undefined;
  private lastNotifiedAt = 0;
  /**
   * The latest position this process appended, by category (`categoryOf`): waitForAppend need
   * not look for it.
   */
  private readonly lastAnnouncedIn = new Map<string, string>();

  /** The pool stays the store's: close() does not end it. */
  constructor(private readonly pool: Pool) {}

  /**
   * LISTENs on a connection of its own (opened on first use, reopened after a failure) for the
   * NOTIFY that follows each append's commit. Before sleeping it looks at the table, so an append
   * that committed before the LISTEN, or before this call, is not slept through; and a missed
   * notification (a writer that died between commit and NOTIFY) costs at most `timeoutMs`.
   *
   * With `streamPrefixes`, it looks only at those streams, and an append that names other
   * streams' categories does not wake it: under load, a forwarder of payments no longer reads
   * the store after every payout.
   */
  waitForAppend(
    after: string | null,
    timeoutMs: number,
    signal?: AbortSignal,
    streamPrefixes?: readonly string[],
  ): Promise<void> {
    if (signal?.aborted || this.closed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const [transactionId, globalPosition] = parsePosition(after); // a bad checkpoint rejects
      let settled = false;
      let poll: NodeJS.Timeout | undefined;
      const finish = () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(poll);
        this.waiters.delete(onAppend);
        signal?.removeEventListener('abort', finish);
        resolve();
      };
      const onAppend: Waiter = (position, categories) => {
        const ours =
          categories === undefined ||
          categories.some((category) => mayMatchPrefixes(category, streamPrefixes));
        if (position === '' || (ours && (after === null || position > after))) finish();
      };
      const look = async (listening: boolean) => {
        if (settled) return;
        try {
          const { readable, pending } = await peek(
            this.pool,
            [transactionId, globalPosition],
            streamPrefixes,
          );
          if (readable) return finish();
          if (settled || (!pending && listening)) return;
          poll = setTimeout(
            () => void look(listening),
            pending ? PENDING_POLL_MS : NO_LISTENER_POLL_MS,
          );
        } catch {
          // The caller's next read reports the failure; waking early costs one read.
          finish();
        }
      };
      const timer = setTimeout(finish, timeoutMs);
      signal?.addEventListener('abort', finish, { once: true });
      this.waiters.add(onAppend);
      // Under load the usual case: this process appended after `after` while the caller read, so
      // the look below would only find it again, one query per subscriber and round. (Its
      // commit came first; if an older transaction still hides it, the caller reads nothing and
      // waits again, as after any wake.)
      const announced = this.lastAnnouncedOf(streamPrefixes);
      if (announced !== undefined) onAppend(announced, undefined);
      if (settled) return;
      this.listen().then(
        () => look(true),
        () => look(false),
      );
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.announcing;
    this.wakeWaiters('', undefined);
    const listener = this.listener;
    this.listener = undefined;
    if (listener) await listener.then((client) => client.end()).catch(() => undefined);
  }

  /**
   * An append of this process committed at `position`, to a stream of `category`: its waiters
   * are woken at once, other processes' by a NOTIFY. NOTIFY after the commit, not inside the
   * append's transaction: a notifying commit holds a database-wide lock until its WAL is flushed,
   * which serialises every concurrent appender (measured: 8 writers lost about 3x throughput).
   * Off the caller's path, and coalesced: while one NOTIFY is on its way, later appends only
   * raise the position the next one carries (a listener needs to know that something after its
   * checkpoint exists, not every append).
   */
  announce(position: string, category: string): void {
    const last = this.lastAnnouncedIn.get(category);
    if (last === undefined && this.lastAnnouncedIn.size >= MAX_CATEGORIES_REMEMBERED) {
      this.lastAnnouncedIn.clear(); // forgetting only costs a waiter a look at the table
    }
    if (last === undefined || position > last) this.lastAnnouncedIn.set(category, position);
    this.wakeWaiters(position, [category]);
    if (this.unannounced === undefined || position > this.unannounced) this.unannounced = position;
    this.unannouncedCategories.add(category);
    this.announcing ??= (async () => {
      while (this.unannounced !== undefined) {
        const wait = this.lastNotifiedAt + NOTIFY_INTERVAL_MS - Date.now();
        if (wait > 0) await new Promise((done) => setTimeout(done, wait).unref());
        this.lastNotifiedAt = Date.now();
        const payload = appendNotification(this.unannounced, this.unannouncedCategories);
        this.unannounced = undefined;
        this.unannouncedCategories.clear();
        await this.pool
          .query({
            name: 'es_notify',
            text: 'SELECT pg_notify($1, $2)',
            values: [APPEND_CHANNEL, payload],
          })
          .catch(() => undefined); // listeners fall back on their timeout
      }
      this.announcing = undefined;
    })();
  }

  private listen(): Promise<Client> {
    if (this.closed) return Promise.reject(new Error('PostgresEventStore is closed'));
    if (this.listener === undefined && Date.now() < this.listenerRetryAt) {
      return Promise.reject(new Error('LISTEN connection unavailable, polling meanwhile'));
    }
    this.listener ??= this.openListener();
    return this.listener;
  }

  private openListener(): Promise<Client> {
    const client = new Client(this.pool.options as ClientConfig);
    let established = false;
    const drop = () => {
      if (this.listener !== opened) return;
      this.listener = undefined;
      client.end().catch(() => undefined);
      if (established) {
        // Notifications may have been lost with the connection: let every sleeper read again.
        this.wakeWaiters('', undefined);
      } else {
        // Never listened, so nothing was missed; the sleepers poll, and we retry later rather
        // than on every call.
        this.listenerRetryAt = Date.now() + LISTENER_RETRY_MS;
      }
    };
    const opened: Promise<Client> = (async () => {
      client.on('notification', (message) => {
        const { position, categories } = readAppendNotification(message.payload ?? '');
        this.wakeWaiters(position, categories);
      });
      client.on('error', drop);
      client.on('end', drop);
      await client.connect();
      await client.query(`LISTEN ${APPEND_CHANNEL}`);
      established = true;
      return client;
    })();
    opened.catch(drop);
    return opened;
  }

  private wakeWaiters(position: string, categories: readonly string[] | undefined): void {
    for (const wake of [...this.waiters]) wake(position, categories);
  }

  /** The latest position this process appended to streams that may match the prefixes (any). */
  private lastAnnouncedOf(streamPrefixes: readonly string[] | undefined): string | undefined {
    let latest: string | undefined;
    for (const [category, position] of this.lastAnnouncedIn) {
      if (
        mayMatchPrefixes(category, streamPrefixes) &&
        (latest === undefined || position > latest)
      ) {
        latest = position;
      }
    }
    return latest;
  }
}
