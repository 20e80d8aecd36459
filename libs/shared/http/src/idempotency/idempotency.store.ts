import { randomUUID } from 'node:crypto';
import { type BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { PG_POOL } from '@xaalis/config';
import { ulid, type Mode } from '@xaalis/kernel';
import type { Pool } from 'pg';
import { HTTP_EDGE_OPTIONS, type HttpEdgeOptions } from '../http-edge.options';
import { KeyWrites } from './idempotency-writes';

export interface IdempotencyScope {
  merchantId: string;
  mode: Mode;
  key: string;
}

export interface IdempotentRequest extends IdempotencyScope {
  operation: string;
  requestHash: string;
}

export type BeginResult =
  /**
   * This request owns the key until it completes, releases it or its lease runs out. `objectUlid`
   * is the body of the ids of what it creates: the same for every run of this key.
   */
  | { kind: 'started'; lockToken: string; objectUlid: string }
  | { kind: 'replay'; statusCode: number; body: string }
  | { kind: 'conflict'; reason: 'other_request' | 'in_progress' };

interface StoredKey {
  operation: string;
  lock_token: string | null;
  object_ulid: string | null;
  request_hash: string;
  state: 'running' | 'done';
  status_code: number | null;
  response_body: string | null;
  lease_expired: boolean;
}

/** A key can vanish (forgotten) between our insert and our read; try again a few times. */
const MAX_ATTEMPTS = 3;

/**
 * CONTRACT 3, durable in Postgres (migration 20261122000300_http). A key is claimed by an atomic
 * `INSERT … ON CONFLICT DO NOTHING`, so of any number of concurrent requests exactly one runs.
 * Times come from the database clock, shared by every gateway replica. The lock token makes
 * completion a no-op for a request whose lease another one took over after it stalled.
 *
 * The ids of what a keyed request creates are fixed at the claim (`object_ulid`) and handed to
 * every run of the key: a run that died after its effect (or failed with a 5xx, whose effect is
 * unknown) leaves the key to a retry that makes the same ids, so the stream's expected revision
 * finds the first run's events instead of a second object being made. This works whatever holds
 * the effect (the Postgres event store, EventStoreDB, another table), with no transaction across
 * stores.
 *
 * Claims and completions share one lane (`KeyWrites`): those made while one statement is on its
 * way go together as the next.
 *
 * The response does not wait for its completion: the outcome is stored while the answer goes out.
 * A repeat of the key in this process still replays it, since its claim is written after the
 * completion in the one lane (in the same statement, its read follows it); a repeat reaching
 * another replica within those milliseconds is told the key is in progress (409), as while the
 * first request runs. If the process dies before the outcome is stored, the key behaves as after
 * any crash: its retry, once the lease has run out, runs again with the same ids and answers the
 * object the first run made.
 */
@Injectable()
export class IdempotencyStore implements BeforeApplicationShutdown {
  private readonly writes: KeyWrites;
  /** Completions on their way, which shutdown waits for. */
  private readonly completing = new Set<Promise<boolean>>();

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(HTTP_EDGE_OPTIONS)
    private readonly options: Pick<HttpEdgeOptions, 'idempotencyLeaseMs'>,
  ) {
    this.writes = new KeyWrites(pool, options.idempotencyLeaseMs);
  }

  /** Outcomes still on their way are stored before the pool closes. */
  beforeApplicationShutdown(): Promise<void> {
    return this.outcomesStored();
  }

  /**
   * Resolves once every outcome submitted so far is stored (or failed to be): for shutdown, and
   * for tests that read the table right after a response.
   */
  async outcomesStored(): Promise<void> {
    await Promise.allSettled(this.completing.values());
  }

  async begin(request: IdempotentRequest): Promise<BeginResult> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const lockToken = randomUUID();
      const objectUlid = ulid();
      const claimed = await this.writes.submit({
        kind: 'claim',
        merchantId: request.merchantId,
        mode: request.mode,
        key: request.key,
        operation: request.operation,
        requestHash: request.requestHash,
        lockToken,
        objectUlid,
      });
      if (claimed) return { kind: 'started', lockToken, objectUlid };
      const stored = await this.read(request);
      if (!stored) continue;
      if (stored.lock_token === lockToken) return { kind: 'started', lockToken, objectUlid };
      if (stored.operation !== request.operation || stored.request_hash !== request.requestHash) {
        return { kind: 'conflict', reason: 'other_request' };
      }
      if (stored.state === 'done') {
        return {
          kind: 'replay',
          statusCode: stored.status_code ?? 200,
          body: stored.response_body ?? '',
        };
      }
      if (!stored.lease_expired) return { kind: 'conflict', reason: 'in_progress' };
      const taken = await this.takeOver(request);
      if (taken) return { kind: 'started', ...taken };
    }
    return { kind: 'conflict', reason: 'in_progress' };
  }

  /**
   * Stores the final outcome; false when the lease was lost to another request meanwhile. The
   * response need not wait for it (see the class comment). A key whose row is gone meanwhile (the
   * retention sweep took a run that outlived its lease) is stored anew with this outcome, which
   * its retries then replay.
   */
  complete(
    request: IdempotentRequest,
    lockToken: string,
    statusCode: number,
    body: string,
  ): Promise<boolean> {
    const stored = this.writes.submit({
      kind: 'completion',
      merchantId: request.merchantId,
      mode: request.mode,
      key: request.key,
      operation: request.operation,
      requestHash: request.requestHash,
      lockToken,
      statusCode,
      body,
    });
    this.completing.add(stored);
    const settled = () => this.completing.delete(stored);
    stored.then(settled, settled);
    return stored;
  }

  /**
   * Forgets a claim whose request changed nothing (refused: 400, 401, 429), so the key is free
   * for any request again.
   */
  async forget(scope: IdempotencyScope, lockToken: string): Promise<void> {
    await this.pool.query(
      `DELETE FROM http_idempotency_keys
        WHERE merchant_id = $1 AND mode = $2 AND key = $3 AND lock_token = $4 AND state = 'running'`,
      [scope.merchantId, scope.mode, scope.key, lockToken],
    );
  }

  /**
   * Gives up a claim whose outcome is unknown (5xx: the effect may have happened), keeping its
   * operation, body hash and object ids: the next request with this key runs at once, as a
   * takeover, and makes the same ids.
   */
  async release(scope: IdempotencyScope, lockToken: string): Promise<void> {
    await this.pool.query(
      `UPDATE http_idempotency_keys SET lock_token = NULL, locked_until = now()
        WHERE merchant_id = $1 AND mode = $2 AND key = $3 AND lock_token = $4 AND state = 'running'`,
      [scope.merchantId, scope.mode, scope.key, lockToken],
    );
  }

  /** Deletes keys older than the retention; returns how many. Expired `running` rows go too. */
  async deleteOlderThan(retentionMs: number): Promise<number> {
    const result = await this.pool.query(
      `DELETE FROM http_idempotency_keys
        WHERE created_at < now() - $1 * interval '1 millisecond'
          AND (state = 'done' OR locked_until < now())`,
      [retentionMs],
    );
    return result.rowCount ?? 0;
  }

  private async read(scope: IdempotencyScope): Promise<StoredKey | undefined> {
    const result = await this.pool.query<StoredKey>(
      `SELECT operation, lock_token, object_ulid, request_hash, state, status_code, response_body,
              coalesce(locked_until <= now(), false) AS lease_expired
         FROM http_idempotency_keys
        WHERE merchant_id = $1 AND mode = $2 AND key = $3`,
      [scope.merchantId, scope.mode, scope.key],
    );
    return result.rows[0];
  }

  /**
   * The owner of an expired lease is presumed crashed (or released the key after a 5xx); only one
   * retry wins the row, and it keeps the row's object ids.
   */
  private async takeOver(
    request: IdempotentRequest,
  ): Promise<{ lockToken: string; objectUlid: string } | undefined> {
    const lockToken = randomUUID();
    const { rows } = await this.pool.query<{ object_ulid: string }>(
      `UPDATE http_idempotency_keys
          SET lock_token = $4, locked_until = now() + $5 * interval '1 millisecond',
              object_ulid = coalesce(object_ulid, $6)
        WHERE merchant_id = $1 AND mode = $2 AND key = $3
          AND state = 'running' AND locked_until <= now()
       RETURNING object_ulid`,
      [
        request.merchantId,
        request.mode,
        request.key,
        lockToken,
        this.options.idempotencyLeaseMs,
        ulid(),
      ],
    );
    return rows[0] && { lockToken, objectUlid: rows[0].object_ulid };
  }
}
