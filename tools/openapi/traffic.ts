import { readFileSync } from 'node:fs';
import addFormats from 'ajv-formats';
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';
import { DOCUMENT_FILE } from './artifacts';

/** One HTTP exchange as a test client saw it. */
export interface Exchange {
  method: string;
  /** Path and query string, as requested. */
  url: string;
  status: number;
  contentType: string;
  /** Parsed JSON, the text otherwise, undefined when empty. */
  body: unknown;
}

/**
 * Checks exchanges against the OpenAPI document with openapi-backend's validator (ajv): the
 * route is documented, the status is one it lists, the body matches that status's schema. The
 * document is made strict first: an object a response returns may hold no property it does not
 * name, so an undocumented field is a violation too. Exchanges the document cannot describe are
 * left out: the hosted pages, the document itself, and refusals of routes that do not exist.
 */
export class TrafficChecker {
  private constructor(private readonly api: OpenAPIBackend) {}

  /** A checker of the committed document, or of `document`. */
  static async load(
    document = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as Document,
  ): Promise<TrafficChecker> {
    const api = new OpenAPIBackend({
      definition: strict(document),
      quick: true,
      customizeAjv: (ajv) => addFormats(ajv),
    });
    await api.init();
    return new TrafficChecker(api);
  }

  /** One line per violation: `METHOD url → status: what is wrong`. */
  violations(exchanges: readonly Exchange[]): string[] {
    return exchanges.flatMap((exchange) =>
      this.check(exchange).map(
        (problem) => `${exchange.method} ${exchange.url} → ${exchange.status}: ${problem}`,
      ),
    );
  }

  private check(exchange: Exchange): string[] {
    // As sent: the service routes `/./metrics` or `/v1/payments/` apart from their normal form.
    // In absolute form (`GET http://host/health`, RFC 9112) or with a fragment, the same route.
    const target = exchange.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').replace(/#.*/s, '');
    const [pathname = '', query = ''] = target.split(/\?(.*)/s);
    const searchParams = new URLSearchParams(query);
    if (PAGES.test(pathname)) return [];
    // HEAD is GET without the body (RFC 9110): Fastify answers it for every GET route.
    const head = exchange.method.toUpperCase() === 'HEAD';
    // The router would match `/v1/payments/` to `/v1/payments`.
    const trailingSlash = pathname.length > 1 && pathname.endsWith('/');
    const operation =
      !trailingSlash &&
      this.api.router.matchOperation({
        method: head ? 'get' : exchange.method.toLowerCase(),
        path: pathname,
        headers: {},
        query: Object.fromEntries(searchParams),
      });
    if (!operation) {
      // A refusal of a route the service does not have (unknown path or method, malformed
      // request) has no operation to be described by: CONTRACT 2 and the fuzz harness hold it.
      return exchange.status >= 400 ? [] : ['no operation of the document serves this route'];
    }
    const documented = operation.responses?.[String(exchange.status)];
    if (!documented) return [`status ${exchange.status} is not documented`];
    if (head) return [];
    const content = 'content' in documented ? documented.content : undefined;
    if (!content) return exchange.body === undefined ? [] : ['a body where none is documented'];
    const mediaType = exchange.contentType.split(';')[0]!.trim();
    if (!content[mediaType]) return [`content type ${mediaType || 'none'} is not documented`];
    if (mediaType !== 'application/json') return [];
    const result = this.api.validator.validateResponse(
      exchange.body,
      operation as Operation,
      exchange.status,
    );
    return (result.errors ?? []).map(
      (error) =>
        `${error.instancePath || '(body)'} ${error.message} ${JSON.stringify(error.params)}`,
    );
  }
}

/** The hosted pages (HTML, their form posts and redirects) and the document: not API routes. */
const PAGES = /^\/(?:checkout|sandbox|docs|invoices)(?:\/|$)|^\/favicon\.ico$/;

/** The document with `additionalProperties: false` on every object schema that names its own. */
function strict<T>(node: T): T {
  if (Array.isArray(node)) return node.map(strict) as T;
  if (node === null || typeof node !== 'object') return node;
  const copy = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, strict(value)]),
  ) as Record<string, unknown>;
  if (copy.properties !== undefined && copy.additionalProperties === undefined)
    copy.additionalProperties = false;
  return copy as T;
}
