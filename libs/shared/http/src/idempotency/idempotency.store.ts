import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PG_POOL } from '@xaalis/config';
import type { Mode } from '@xaalis/kernel';
import type { Pool } from 'pg';
import { HTTP_EDGE_OPTIONS, type HttpEdgeOptions } from '../http-edge.options';

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
  /** This request owns the key until it completes, releases it or its lease runs out. */
  | { kind: 'started'; lockToken: string }
  | { kind: 'replay'; statusCode: number; body: string }
  | { kind: 'conflict'; reason: 'other_request' | 'in_progress' };

interface StoredKey {
  operation: string;
  request_hash: string;
  state: 'running' | 'done';
  status_code: number | null;
  response_body: string | null;
  lease_expired: boolean;
}

/** A key can vanish (released) between our insert and our read; try again a few times. */
const MAX_ATTEMPTS = 3;

/**
 * CONTRACT 3, durable in Postgres (migration 20261122000300_http). A key is claimed by an atomic
 * `INSERT … ON CONFLICT DO NOTHING`, so of any number of concurrent requests exactly one runs.
 * Times come from the database clock, shared by every gateway replica. The lock token makes
 * completion a no-op for a request whose lease another one took over after it stalled.
 */
@Injectable()
export class IdempotencyStore {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(HTTP_EDGE_OPTIONS)
    private readonly options: Pick<HttpEdgeOptions, 'idempotencyLeaseMs'>,
  ) {}

  async begin(request: IdempotentRequest): Promise<BeginResult> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const claimed = await this.claim(request);
      if (claimed) return { kind: 'started', lockToken: claimed };
      const stored = await this.read(request);
      if (!stored) continue;
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
      if (taken) return { kind: 'started', lockToken: taken };
    }
    return { kind: 'conflict', reason: 'in_progress' };
  }

  /** Stores the final outcome; false when the lease was lost to another request meanwhile. */
  async complete(
    scope: IdempotencyScope,
    lockToken: string,
    statusCode: number,
    body: string,
  ): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE http_idempotency_keys
          SET state = 'done', status_code = $5, response_body = $6, completed_at = now(),
              lock_token = NULL, locked_until = NULL
        WHERE merchant_id = $1 AND mode = $2 AND key = $3 AND lock_token = $4 AND state = 'running'`,
      [scope.merchantId, scope.mode, scope.key, lockToken, statusCode, body],
    );
    return result.rowCount === 1;
  }

  /** Forgets a claim whose outcome must not be replayed (400, 401, 429, 5xx), so a retry runs. */
  async release(scope: IdempotencyScope, lockToken: string): Promise<void> {
    await this.pool.query(
      `DELETE FROM http_idempotency_keys
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

  private async claim(request: IdempotentRequest): Promise<string | undefined> {
    const lockToken = randomUUID();
    const result = await this.pool.query(
      `INSERT INTO http_idempotency_keys
              (merchant_id, mode, key, operation, request_hash, state, lock_token, locked_until)
       VALUES ($1, $2, $3, $4, $5, 'running', $6, now() + $7 * interval '1 millisecond')
       ON CONFLICT (merchant_id, mode, key) DO NOTHING`,
      [
        request.merchantId,
        request.mode,
        request.key,
        request.operation,
        request.requestHash,
        lockToken,
        this.options.idempotencyLeaseMs,
      ],
    );
    return result.rowCount === 1 ? lockToken : undefined;
  }

  private async read(scope: IdempotencyScope): Promise<StoredKey | undefined> {
    const result = await this.pool.query<StoredKey>(
      `SELECT operation, request_hash, state, status_code, response_body,
              coalesce(locked_until <= now(), false) AS lease_expired
         FROM http_idempotency_keys
        WHERE merchant_id = $1 AND mode = $2 AND key = $3`,
      [scope.merchantId, scope.mode, scope.key],
    );
    return result.rows[0];
  }

  /** The owner of an expired lease is presumed crashed; only one retry wins the row. */
  private async takeOver(request: IdempotentRequest): Promise<string | undefined> {
    const lockToken = randomUUID();
    const result = await this.pool.query(
      `UPDATE http_idempotency_keys
          SET lock_token = $4, locked_until = now() + $5 * interval '1 millisecond'
        WHERE merchant_id = $1 AND mode = $2 AND key = $3
          AND state = 'running' AND locked_until <= now()`,
      [request.merchantId, request.mode, request.key, lockToken, this.options.idempotencyLeaseMs],
    );
    return result.rowCount === 1 ? lockToken : undefined;
  }
}
