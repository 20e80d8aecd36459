import { StatementBatcher } from '@xaalis/batching';
import type { Pool } from 'pg';
import type { IdempotentRequest } from './idempotency.store';

/** Claims and completions in one statement at most. */
const MAX_GROUPED = 64;

/**
 * A completion takes only the row its own run still holds: running, under its lock token. That
 * row keeps the token, by which the statement reports the completion as taken.
 */
const COMPLETE_ON_CONFLICT = `ON CONFLICT (merchant_id, mode, key) DO UPDATE
                SET state = 'done', status_code = excluded.status_code,
                    response_body = excluded.response_body, completed_at = now(),
                    locked_until = NULL
              WHERE k.lock_token = excluded.lock_token AND k.state = 'running'`;

export interface Claim extends IdempotentRequest {
  kind: 'claim';
  lockToken: string;
  objectUlid: string;
}

export interface Completion extends IdempotentRequest {
  kind: 'completion';
  lockToken: string;
  statusCode: number;
  body: string;
}

/** What the store writes to a key; the result says whether it took (claimed, or completed). */
export type KeyWrite = Claim | Completion;

/**
 * The lane in which `IdempotencyStore` writes claims and completions (`StatementBatcher`): those
 * made while one statement is on its way go together as the next, claims inserted in key order,
 * completions too. A claim retried alone after a batch that committed finds its own lock token:
 * it is ours. (A completion retried so finds the row done and says false: the outcome is stored
 * all the same.) A done row keeps the lock token of the run whose outcome it holds, which is how
 * a statement tells which of its completions took.
 */
export class KeyWrites {
  private readonly lane: StatementBatcher<KeyWrite, boolean>;

  constructor(
    private readonly pool: Pool,
    /** How long a claim owns its key. */
    private readonly leaseMs: number,
  ) {
    this.lane = new StatementBatcher({
      alone: (write) =>
        write.kind === 'claim' ? this.claimAlone(write) : this.completeAlone(write),
      together: (writes) => this.writeTogether(writes),
      maxBatch: MAX_GROUPED,
    });
  }

  /** True when the write took: the key claimed, or the outcome stored. */
  submit(write: KeyWrite): Promise<boolean> {
    return this.lane.submit(write);
  }

  private async claimAlone(claim: Claim): Promise<boolean> {
    const result = await this.pool.query({
      name: 'idempotency_claim',
      text: `INSERT INTO http_idempotency_keys
                    (merchant_id, mode, key, operation, request_hash, state, lock_token, locked_until,
                     object_ulid)
             VALUES ($1, $2, $3, $4, $5, 'running', $6, now() + $7 * interval '1 millisecond', $8)
             ON CONFLICT (merchant_id, mode, key) DO NOTHING`,
      values: [
        claim.merchantId,
        claim.mode,
        claim.key,
        claim.operation,
        claim.requestHash,
        claim.lockToken,
        this.leaseMs,
        claim.objectUlid,
      ],
    });
    return result.rowCount === 1;
  }

  private async completeAlone(completion: Completion): Promise<boolean> {
    const result = await this.pool.query({
      name: 'idempotency_complete',
      text: `INSERT INTO http_idempotency_keys AS k
                    (merchant_id, mode, key, operation, request_hash, state, lock_token,
                     status_code, response_body, completed_at)
             VALUES ($1, $2, $3, $4, $5, 'done', $6, $7, $8, now())
             ${COMPLETE_ON_CONFLICT}`,
      values: [
        completion.merchantId,
        completion.mode,
        completion.key,
        completion.operation,
        completion.requestHash,
        completion.lockToken,
        completion.statusCode,
        completion.body,
      ],
    });
    return result.rowCount === 1;
  }

  /**
   * Claims and completions in one statement. Two claims of one key: the first inserted wins, as
   * if they came one by one. A completion is of a key claimed by an earlier statement, so the
   * claims here (inserting new rows) and the completions (updating older ones) touch different
   * rows, and the statement's one snapshot hides nothing either needs. (A completion whose row the
   * retention sweep took inserts it again; should a claim of that key share the statement, Postgres
   * refuses the statement, and each write goes again alone.)
   *
   * Both halves find their rows through the primary key's conflict check, with no join to plan: a
   * prepared statement's generic plan, made while a new database's table was nearly empty, can
   * then never turn into a scan of the whole table as it grows (as an UPDATE … FROM did).
   */
  private async writeTogether(writes: KeyWrite[]): Promise<boolean[]> {
    const claims = writes.filter((write): write is Claim => write.kind === 'claim');
    const completions = writes.filter((write): write is Completion => write.kind === 'completion');
    const { rows } = await this.pool.query<{ lock_token: string }>({
      name: 'idempotency_writes',
      text: `WITH claimed AS (
               INSERT INTO http_idempotency_keys
                      (merchant_id, mode, key, operation, request_hash, state, lock_token,
                       locked_until, object_ulid)
               SELECT merchant_id, mode, key, operation, request_hash, 'running', lock_token,
                      now() + $7 * interval '1 millisecond', object_ulid
                 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
                             $6::uuid[], $8::text[])
                      AS r(merchant_id, mode, key, operation, request_hash, lock_token, object_ulid)
                ORDER BY merchant_id, mode, key
               ON CONFLICT (merchant_id, mode, key) DO NOTHING
               RETURNING lock_token
             ), completed AS (
               INSERT INTO http_idempotency_keys AS k
                      (merchant_id, mode, key, operation, request_hash, state, lock_token,
                       status_code, response_body, completed_at)
               SELECT merchant_id, mode, key, operation, request_hash, 'done', lock_token,
                      status_code, response_body, now()
                 FROM unnest($9::text[], $10::text[], $11::text[], $12::text[], $13::text[],
                             $14::uuid[], $15::int[], $16::text[])
                      AS r(merchant_id, mode, key, operation, request_hash, lock_token, status_code,
                           response_body)
                ORDER BY merchant_id, mode, key
               ${COMPLETE_ON_CONFLICT}
               RETURNING k.lock_token
             )
             SELECT lock_token FROM claimed UNION ALL SELECT lock_token FROM completed`,
      values: [
        claims.map((claim) => claim.merchantId),
        claims.map((claim) => claim.mode),
        claims.map((claim) => claim.key),
        claims.map((claim) => claim.operation),
        claims.map((claim) => claim.requestHash),
        claims.map((claim) => claim.lockToken),
        this.leaseMs,
        claims.map((claim) => claim.objectUlid),
        completions.map((completion) => completion.merchantId),
        completions.map((completion) => completion.mode),
        completions.map((completion) => completion.key),
        completions.map((completion) => completion.operation),
        completions.map((completion) => completion.requestHash),
        completions.map((completion) => completion.lockToken),
        completions.map((completion) => completion.statusCode),
        completions.map((completion) => completion.body),
      ],
    });
    const took = new Set(rows.map((row) => row.lock_token));
    return writes.map((write) => took.has(write.lockToken));
  }
}
