import { resolve } from 'node:path';
import { parseFailpoints, type FailpointSettings } from '@xaalis/failpoints';

/**
 * The whole configuration, read once from the environment and validated at boot (CONTRACT 10).
 * Nothing else in the code base reads `process.env`.
 */
export interface XaalisConfig {
  port: number;
  publicBaseUrl: string;
  dataDir: string;
  /** Unset: the embedded Postgres under `dataDir`. */
  databaseUrl: string | undefined;
  /** Set: EventStoreDB holds the streams; unset: the Postgres event store. */
  eventStoreUrl: string | undefined;
  /** Set: Kafka between the apps; unset: the in-process bus. */
  kafkaBrokers: string[] | undefined;
  aggregatorMode: boolean;
  sandboxSettleMs: number;
  webhookAllowedHosts: string[];
  webhookRetryBaseMs: number;
  /**
   * How long a webhook delivery being sent stays leased: a worker that dies mid-send leaves it to
   * come due again after this. Above the 10 s send timeout, or a live send could be leased twice.
   */
  webhookLeaseMs: number;
  /**
   * How long a durable job being run stays leased: a runner that dies mid-run leaves it to come
   * due again after this. Above the 10 s provider timeout, or a live run could be leased twice.
   */
  jobLeaseMs: number;
  /** The public test-mode exchange on or off (CONTRACT 8). */
  exchangeEnabled: boolean;
  /** The exchange's fee in basis points of `send_amount`, rounded half up (CONTRACT 8). */
  exchangeFeeBps: number;
  /** Providers marked down: an exchange from or to one is 503 `unavailable` (CONTRACT 8). */
  exchangeProvidersDown: Array<'wave' | 'orange_money'>;
  /** Key of the HMAC under which API-key secrets are stored. */
  secretHashKey: string | undefined;
  /** Secret the auth library signs session cookies with. */
  authSecret: string | undefined;
  /** Requests per second and burst per credential, and per IP on public and sign-in routes. */
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  ipRateLimitPerSecond: number;
  ipRateLimitBurst: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Tests make Kafka consumers poll fast; production keeps the kafkajs default. */
  kafkaMaxWaitMs: number;
  /**
   * How long a Kafka consumer group keeps a member that stopped heartbeating: after a crash, how
   * long the restarted app waits to read again. Bounds: Kafka's default group.min and
   * group.max.session.timeout.ms.
   */
  kafkaSessionTimeoutMs: number;
  /** A test run that needs kcat or Postgres fails instead of skipping. */
  requireServices: boolean;
  /** Live providers (CONTRACT 6): base URLs are configurable so tests point them at local fakes. */
  wave: WaveConfig;
  orangeMoney: OrangeMoneyConfig;
  /** A provider call taking longer is an unknown outcome (reconciled later), never a failure. */
  providerTimeoutMs: number;
  /** Fee per provider in basis points of the amount (100 = 1%), rounded half up to whole XOF. */
  feeBps: { wave: number; orange_money: number; mock: number };
  /** Payout fees in basis points of the amount, per provider (CONTRACT 6), on top of the amount. */
  payoutFeeBps: { wave: number; orange_money: number };
  /**
   * How long a running request holds its idempotency key: a retry after the request's process
   * died waits this long, then runs again with the same object id (CONTRACT 3).
   */
  idempotencyLeaseMs: number;
  /** Tests only (`XAALIS_FAILPOINTS`): points where this process crashes or throws on purpose. */
  failpoints: FailpointSettings;
}

export interface WaveConfig {
  apiBaseUrl: string;
  /** Bearer key of the Wave Checkout API; live `wave` payments are unavailable without it. */
  apiKey: string | undefined;
  /** Secret of Wave's webhook signatures (`Wave-Signature: t=…,v1=…`). */
  webhookSecret: string | undefined;
}

export interface OrangeMoneyConfig {
  apiBaseUrl: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** The merchant code payments are made to. */
  merchantCode: string | undefined;
  /** The API key Orange Money sends back on its merchant callback (registered with Sonatel). */
  callbackApiKey: string | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): XaalisConfig {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
    if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };
  const list = (name: string): string[] | undefined => {
    const raw = text(name);
    if (raw === undefined) return undefined;
    return raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
  };
  const url = (name: string, protocols: string[]): string | undefined => {
    const raw = text(name);
    if (raw === undefined) return undefined;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) {
        problems.push(`${name} must use ${protocols.join(' or ')} (got "${parsed.protocol}")`);
      }
    } catch {
      problems.push(`${name} is not a URL`);
    }
    return raw;
  };

  const providers = (name: string): Array<'wave' | 'orange_money'> => {
    const named = list(name) ?? [];
    const unknown = named.filter((item) => item !== 'wave' && item !== 'orange_money');
    if (unknown.length > 0) {
      problems.push(`${name} may list wave and orange_money (got "${unknown.join(', ')}")`);
    }
    return named.filter((item) => item === 'wave' || item === 'orange_money');
  };

  const baseUrl = (raw: string): string => raw.replace(/\/+$/, '');
  const failpointsFrom = (raw: string | undefined): FailpointSettings => {
    if (raw === undefined) return {};
    const parsed = parseFailpoints(raw);
    problems.push(...parsed.problems);
    return parsed.settings;
  };

  const port = int('PORT', 3000, 0, 65535);
  const logLevel = text('LOG_LEVEL') ?? 'info';
  if (!['debug', 'info', 'warn', 'error', 'silent'].includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of debug, info, warn, error, silent`);
  }
  const config: XaalisConfig = {
    port,
    publicBaseUrl: (
      url('PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`
    ).replace(/\/+$/, ''),
    dataDir: resolve(text('DATA_DIR') ?? '.data'),
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    eventStoreUrl: url('EVENTSTORE_URL', ['esdb:', 'esdb+discover:', 'postgres:', 'postgresql:']),
    kafkaBrokers: list('KAFKA_BROKERS'),
    aggregatorMode: bool('AGGREGATOR_MODE', true),
    sandboxSettleMs: int('SANDBOX_SETTLE_MS', 2000, 0, 86_400_000),
    webhookAllowedHosts: (list('WEBHOOK_ALLOWED_HOSTS') ?? []).map((host) => host.toLowerCase()),
    webhookRetryBaseMs: int('WEBHOOK_RETRY_BASE_MS', 10_000, 1, 86_400_000),
    webhookLeaseMs: int('WEBHOOK_LEASE_MS', 60_000, 15_000, 3_600_000),
    jobLeaseMs: int('JOB_LEASE_MS', 60_000, 15_000, 3_600_000),
    exchangeEnabled: bool('EXCHANGE_ENABLED', true),
    exchangeFeeBps: int('EXCHANGE_FEE_BPS', 300, 0, 10_000),
    exchangeProvidersDown: providers('EXCHANGE_PROVIDERS_DOWN'),
    secretHashKey: text('SECRET_HASH_KEY'),
    authSecret: text('AUTH_SECRET'),
    rateLimitPerSecond: int('RATE_LIMIT_PER_SECOND', 100, 1, 1_000_000),
    rateLimitBurst: int('RATE_LIMIT_BURST', 200, 1, 1_000_000),
    ipRateLimitPerSecond: int('IP_RATE_LIMIT_PER_SECOND', 10, 1, 1_000_000),
    ipRateLimitBurst: int('IP_RATE_LIMIT_BURST', 30, 1, 1_000_000),
    logLevel: logLevel as XaalisConfig['logLevel'],
    kafkaMaxWaitMs: int('KAFKA_MAX_WAIT_MS', 5000, 1, 60_000),
    kafkaSessionTimeoutMs: int('KAFKA_SESSION_TIMEOUT_MS', 30_000, 6_000, 1_800_000),
    requireServices: bool('XAALIS_REQUIRE_SERVICES', false),
    wave: {
      apiBaseUrl: baseUrl(url('WAVE_API_BASE_URL', ['http:', 'https:']) ?? 'https://api.wave.com'),
      apiKey: text('WAVE_API_KEY'),
      webhookSecret: text('WAVE_WEBHOOK_SECRET'),
    },
    orangeMoney: {
      apiBaseUrl: baseUrl(
        url('ORANGE_MONEY_API_BASE_URL', ['http:', 'https:']) ?? 'https://api.orange-sonatel.com',
      ),
      clientId: text('ORANGE_MONEY_CLIENT_ID'),
      clientSecret: text('ORANGE_MONEY_CLIENT_SECRET'),
      merchantCode: text('ORANGE_MONEY_MERCHANT_CODE'),
      callbackApiKey: text('ORANGE_MONEY_CALLBACK_API_KEY'),
    },
    providerTimeoutMs: int('PROVIDER_TIMEOUT_MS', 10_000, 1, 120_000),
    feeBps: {
      wave: int('FEE_WAVE_BPS', 100, 0, 10_000),
      orange_money: int('FEE_ORANGE_MONEY_BPS', 150, 0, 10_000),
      mock: int('FEE_MOCK_BPS', 100, 0, 10_000),
    },
    payoutFeeBps: {
      wave: int('PAYOUT_FEE_WAVE_BPS', 100, 0, 10_000),
      orange_money: int('PAYOUT_FEE_ORANGE_MONEY_BPS', 100, 0, 10_000),
    },
    idempotencyLeaseMs: int('IDEMPOTENCY_LEASE_MS', 60_000, 1_000, 3_600_000),
    failpoints: failpointsFrom(text('XAALIS_FAILPOINTS')),
  };
  if (config.secretHashKey !== undefined && config.secretHashKey.length < 32) {
    problems.push('SECRET_HASH_KEY must be at least 32 characters');
  }
  if (config.authSecret !== undefined && config.authSecret.length < 32) {
    problems.push('AUTH_SECRET must be at least 32 characters');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
