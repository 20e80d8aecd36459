import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { CONFIG, type XaalisConfig } from '@xaalis/config';
import { documentErrors } from './openapi-errors';
import { documentRequestId } from './openapi-request-id';

/**
 * Security scheme names: `@ApiBearerAuth(OPENAPI_BEARER)` (API keys), `@ApiCookieAuth
 * (OPENAPI_SESSION)` (the dashboard), `@ApiSecurity(OPENAPI_CLIENT_SECRET)` (a customer's page).
 * Public routes say `security: []` in their `@ApiOperation`.
 */
export const OPENAPI_BEARER = 'api_key';
export const OPENAPI_SESSION = 'session';
export const OPENAPI_CLIENT_SECRET = 'client_secret';

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
 * served as JSON at `/docs/openapi.json` with Swagger UI at `/docs`; its server is
 * `PUBLIC_BASE_URL`. Call before `app.init()`.
 */
export function setupOpenApi(app: INestApplication, options: OpenApiOptions = {}): OpenAPIObject {
  const { publicBaseUrl } = app.get<XaalisConfig>(CONFIG);
  const config = new DocumentBuilder()
    .setTitle(options.title ?? 'Xaalis API')
    .setDescription('XOF payments, subscriptions, payouts, agent wallets and signed webhooks.')
    .setVersion(options.version ?? '1')
    .addServer(publicBaseUrl)
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        // Opaque random strings, not JWTs.
        bearerFormat: 'opaque key',
        description: 'Secret (`sk_test_…`, `sk_live_…`), restricted (`rk_…`) or agent (`ak_…`) key',
      },
      OPENAPI_BEARER,
    )
    .addCookieAuth(
      options.sessionCookieName ?? 'better-auth.session_token',
      { type: 'apiKey', in: 'cookie', description: 'Dashboard session' },
      OPENAPI_SESSION,
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'query',
        name: 'cs',
        description: "The payment's client secret, as `checkout_url` carries it",
      },
      OPENAPI_CLIENT_SECRET,
    )
    .build();
  const document = SwaggerModule.createDocument(app, config);
  documentErrors(document);
  documentRequestId(document);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs/openapi.json',
    raw: ['json'],
    ui: options.ui ?? true,
  });
  return document;
}
