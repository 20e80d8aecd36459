import { Module } from '@nestjs/common';
import { CONFIG, PG_POOL, type XaalisConfig } from '@xaalis/config';
import { projectionRunnerProviders } from '@xaalis/runtime';
import type { Pool } from 'pg';
import { AGENT_KEY_LOOKUP } from './api-keys/agent-key-lookup';
import { ApiKeyCache } from './api-keys/api-key-cache';
import { ApiKeyChangeListener } from './api-keys/api-key-change.listener';
import { ApiKeyUsageRecorder } from './api-keys/api-key-usage.recorder';
import { ApiKeyAuthenticator } from './api-keys/api-key.authenticator';
import { BusAgentKeyLookup } from './api-keys/bus-agent-key-lookup';
import { IdentityCommands } from './application/identity-commands.service';
import { AUTH } from './auth/auth.tokens';
import { AuthService } from './auth/auth.service';
import { createAuth } from './auth/better-auth';
import { ApiKeyGuard } from './guards/api-key.guard';
import { SessionGuard } from './guards/session.guard';
import { IDENTITY_PROJECTION_RUNNER, identityProjections } from './read-model/identity-projections';
import { IdentityQueries } from './read-model/identity.queries';
import { WebhookSecretCipher } from './webhook-secret/webhook-secret-cipher';
import { WebhookSecrets } from './webhook-secret/webhook-secrets.service';

const required = (value: string | undefined, name: string): string => {
  // The composition root generates and keeps both in embedded mode; elsewhere they are configured.
  if (!value) throw new Error(`config.${name} must be set before the identity module starts`);
  return value;
};

/**
 * Identity and access: merchants, members and API keys (event-sourced), users and sessions
 * (better-auth), and the two guards. Needs CONFIG, CLOCK, PG_POOL, PRISMA, EVENT_STORE and
 * BUS_CLIENT (agent keys are asked of the payouts app) from the composition root, and `RateLimits`
 * from the global HTTP edge module.
 */
@Module({
  providers: [
    {
      provide: AUTH,
      inject: [PG_POOL, CONFIG],
      useFactory: (pool: Pool, config: XaalisConfig) =>
        createAuth({
          pool,
          secret: required(config.authSecret, 'authSecret'),
          publicBaseUrl: config.publicBaseUrl,
        }),
    },
    {
      provide: WebhookSecretCipher,
      inject: [CONFIG],
      useFactory: (config: XaalisConfig) =>
        new WebhookSecretCipher(required(config.secretHashKey, 'secretHashKey')),
    },
    // The read models follow the merchant streams in the background too, as a safety net:
    // every command already catches them up before it answers.
    ...projectionRunnerProviders(IDENTITY_PROJECTION_RUNNER, 'Identity', identityProjections),
    { provide: ApiKeyCache, useFactory: () => new ApiKeyCache() },
    ApiKeyChangeListener,
    AuthService,
    IdentityQueries,
    ApiKeyUsageRecorder,
    // Agent keys are the payouts app's: asked over the bus, cached like API keys.
    { provide: AGENT_KEY_LOOKUP, useClass: BusAgentKeyLookup },
    ApiKeyAuthenticator,
    IdentityCommands,
    ApiKeyGuard,
    SessionGuard,
    WebhookSecrets,
  ],
  exports: [
    AuthService,
    IdentityQueries,
    IdentityCommands,
    ApiKeyAuthenticator,
    ApiKeyGuard,
    SessionGuard,
    WebhookSecretCipher,
    WebhookSecrets,
  ],
})
export class IdentityModule {}
