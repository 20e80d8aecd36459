import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { XaalisExceptionFilter } from '../errors/xaalis-exception.filter';
import { provideIdempotencyStore } from '../idempotency/idempotency-store-of';
import { IdempotencyStore } from '../idempotency/idempotency.store';
import { HttpMetrics } from '../observability/http-metrics';
import { createValidationPipe } from '../validation/validation-pipe';
import { BODY_LIMIT_BYTES, jsonBodyParser, otherBodyParser } from './body-parsers';
import { REQUEST_ID_HEADER } from './request-id';
import { checkRequestTarget } from './request-target-rules';

/**
 * Applies the shared HTTP edge to an app built on `createFastifyAdapter()` whose module imports
 * `HttpEdgeModule`. Call once, before `app.init()` / `listen()`.
 *
 * - Bodies are JSON only: a catch-all parser answers any other media type with 415 (it also keeps
 *   Nest from adding its urlencoded parser), and accepts an empty body whatever its type.
 * - The exception filter and validation pipe are global, so Fastify's own failures (unknown route,
 *   413) get the same envelope as the handlers'. Those of its router and of Node's HTTP parser
 *   are answered through the adapter's options (see createFastifyAdapter).
 * - A URL whose path or query holds what no object or filter can match is refused before the
 *   guards read it (see checkRequestTarget).
 * - Every response names its request (`Request-Id`), so a client can quote it and an operator
 *   find the request's log line.
 * - Every response is counted by method, route pattern and status.
 * - `@Idempotent` handlers find the app's idempotency store on their request.
 */
export function configureHttpApp(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  // Fastify parses text/plain by default; only ours remain.
  fastify.removeAllContentTypeParsers();
  app.useBodyParser('application/json', { bodyLimit: BODY_LIMIT_BYTES }, jsonBodyParser(fastify));
  app.useBodyParser('*', { bodyLimit: BODY_LIMIT_BYTES }, otherBodyParser);
  app.useGlobalFilters(app.get(XaalisExceptionFilter));
  app.useGlobalPipes(createValidationPipe());
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  fastify.addHook('onRequest', checkRequestTarget);

  provideIdempotencyStore(fastify, app.get(IdempotencyStore));
  const metrics = app.get(HttpMetrics);
  // A callback hook, not an async one: no promise per response.
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.observe(
      request.method,
      request.routeOptions.url,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}
