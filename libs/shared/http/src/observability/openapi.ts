import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

/** Security scheme names for `@ApiBearerAuth(OPENAPI_BEARER)` / `@ApiCookieAuth(OPENAPI_SESSION)`. */
export const OPENAPI_BEARER = 'bearer';
export const OPENAPI_SESSION = 'session';

export interface OpenApiOptions {
  title?: string;
  version?: string;
  /** The auth library's cookie (CONTRACT 1: the name ends with `.session_token`). */
  sessionCookieName?: string;
  /** Serve Swagger UI at `/docs` (default); false serves the JSON document only. */
  ui?: boolean;
}

/**
 * The OpenAPI document generated from the controllers' and DTOs' `@nestjs/swagger` decorators,
 * served as JSON at `/docs/openapi.json` with Swagger UI at `/docs`. Call before `app.init()`.
 */
export function setupOpenApi(app: INestApplication, options: OpenApiOptions = {}): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(options.title ?? 'Xaalis API')
    .setDescription('XOF payments, subscriptions, payouts, agent wallets and signed webhooks.')
    .setVersion(options.version ?? '1')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'Secret, restricted or agent API key' },
      OPENAPI_BEARER,
    )
    .addCookieAuth(
      options.sessionCookieName ?? 'better-auth.session_token',
      { type: 'apiKey', in: 'cookie', description: 'Dashboard session' },
      OPENAPI_SESSION,
    )
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs/openapi.json',
    raw: ['json'],
    ui: options.ui ?? true,
  });
  return document;
}
