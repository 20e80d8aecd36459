import { type DynamicModule, Global, Module } from '@nestjs/common';
import { CONFIG, type XaalisConfig } from '@xaalis/config';
import { XaalisExceptionFilter } from './errors/xaalis-exception.filter';
import {
  DEFAULT_HTTP_EDGE_OPTIONS,
  HTTP_EDGE_OPTIONS,
  type HttpEdgeOptions,
} from './http-edge.options';
import { IdempotencyCleanup } from './idempotency/idempotency-cleanup';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { IdempotencyStore } from './idempotency/idempotency.store';
import { HealthController } from './observability/health.controller';
import { HttpMetrics } from './observability/http-metrics';
import { MetricsController } from './observability/metrics.controller';
import { Readiness } from './observability/readiness';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { RateLimits } from './rate-limit/rate-limits';

/**
 * The HTTP edge every gateway route shares. Global, because `@RateLimit()` and
 * `IdempotentBetweenInterceptors()` put their guard and interceptor on controllers of any module,
 * and Nest builds those in the controller's module. Needs `PG_POOL` and `CONFIG` (`@xaalis/config`) from the composition root;
 * `CLOCK` is used when provided.
 */
@Global()
@Module({})
export class HttpEdgeModule {
  static forRoot(options: Partial<HttpEdgeOptions> = {}): DynamicModule {
    const providers = [
      XaalisExceptionFilter,
      Readiness,
      HttpMetrics,
      RateLimits,
      RateLimitGuard,
      IdempotencyStore,
      IdempotencyInterceptor,
      IdempotencyCleanup,
    ];
    return {
      module: HttpEdgeModule,
      global: true,
      controllers: [HealthController, MetricsController],
      providers: [
        {
          provide: HTTP_EDGE_OPTIONS,
          // The lease is configuration (IDEMPOTENCY_LEASE_MS); what the caller names wins.
          useFactory: (config?: XaalisConfig): HttpEdgeOptions => ({
            ...DEFAULT_HTTP_EDGE_OPTIONS,
            ...(config && { idempotencyLeaseMs: config.idempotencyLeaseMs }),
            ...options,
          }),
          inject: [{ token: CONFIG, optional: true }],
        },
        ...providers,
      ],
      exports: providers,
    };
  }
}
