import {
  Inject,
  Injectable,
  Logger,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { PG_POOL } from '@xaalis/config';
import { API_KEY_CHANGED_CHANNEL } from '@xaalis/database';
import { Client, type ClientConfig, type Pool } from 'pg';
import { ApiKeyCache } from './api-key-cache';

const RECONNECT_MS = 1_000;

/**
 * Evicts a changed key from this process's cache the moment any process commits the change, so a
 * revoke or roll holds on every gateway replica at once rather than after the cache's TTL. LISTENs
 * on a connection of its own; when that connection fails it reconnects, and clears the whole cache
 * once listening again, since notifications sent meanwhile are lost.
 */
@Injectable()
export class ApiKeyChangeListener implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ApiKeyChangeListener.name);
  private client: Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly cache: ApiKeyCache,
  ) {}

  /** Resolves once listening (or after a first failure, with a retry scheduled). */
  async onModuleInit(): Promise<void> {
    await this.connect();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client(this.pool.options as ClientConfig);
    this.client = client;
    const lost = (error?: Error) => {
      if (this.client !== client || this.stopped) return;
      this.client = undefined;
      this.logger.warn(`API key change listener lost (${error?.message ?? 'ended'}), reconnecting`);
      client.end().catch(() => undefined);
      this.retry = setTimeout(() => void this.connect(), RECONNECT_MS).unref();
    };
    client.on('notification', (message) => {
      if (message.payload) this.cache.invalidate(message.payload);
    });
    client.on('error', lost);
    client.on('end', lost);
    try {
      await client.connect();
      await client.query(`LISTEN ${API_KEY_CHANGED_CHANNEL}`);
      // Whatever was cached before this LISTEN may have changed unannounced.
      this.cache.clear();
    } catch (error) {
      lost(error as Error);
    }
  }
}
