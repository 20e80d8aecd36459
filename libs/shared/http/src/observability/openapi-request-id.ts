import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * Adds to every response of every operation the `Request-Id` header that `configureHttpApp` sets
 * on each (request-id.ts), defined once under `components.headers`.
 */
export function documentRequestId(document: OpenAPIObject): void {
  document.components ??= {};
  document.components.headers = {
    ...document.components.headers,
    RequestId: {
      description:
        'Names this request (`req_…`). Quote it when asking for help: a failure of ours is logged with it.',
      schema: { type: 'string', pattern: '^req_[0-9A-Z]{26}$' },
    },
  };
  for (const methods of Object.values(document.paths)) {
    for (const operation of Object.values(methods) as Array<{ responses?: object }>) {
      for (const response of Object.values(operation.responses ?? {}) as Array<{
        headers?: Record<string, unknown>;
      }>) {
        response.headers = {
          ...response.headers,
          'Request-Id': { $ref: '#/components/headers/RequestId' },
        };
      }
    }
  }
}
