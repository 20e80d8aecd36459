/**
 * The routes the harness fuzzes, read from the service's OpenAPI document: a route added to the
 * API joins the harness by being in the document, with nothing to register here. The reader takes
 * what it finds and assumes nothing more: a parameter or body without a schema gets generic JSON.
 */

/** The subset of JSON Schema (OpenAPI 3.0 and 3.1) the request generators understand. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  multipleOf?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  nullable?: boolean;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

export interface ParamSpec {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

/** How a route says it is called: a bearer key, a session cookie, or nothing (a public route). */
export type AuthKind = 'bearer' | 'session' | 'other';

export interface FuzzRoute {
  /** Upper case. */
  method: string;
  /** As in the document: `/v1/payments/{id}`. */
  template: string;
  /** In the order they appear in the template. */
  pathParams: ParamSpec[];
  query: ParamSpec[];
  headers: ParamSpec[];
  /** The JSON body's schema with every `$ref` resolved; `{}` for a body with no schema. */
  body?: JsonSchema;
  bodyRequired: boolean;
  /** Any one of these is enough; empty for a public route. */
  auth: AuthKind[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** `$ref`s are followed this deep; past it (a recursive schema), generic JSON stands in. */
const MAX_REF_DEPTH = 8;

type Doc = Record<string, unknown>;

export function routesOf(document: unknown): FuzzRoute[] {
  if (!isObject(document) || !isObject(document.paths)) {
    throw new Error('not an OpenAPI document: no `paths` object');
  }
  const doc = document;
  const routes: FuzzRoute[] = [];
  for (const [template, pathItemRaw] of Object.entries(document.paths)) {
    const pathItem = deref(doc, pathItemRaw, 0);
    if (!isObject(pathItem)) continue;
    const shared = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      const own = Array.isArray(operation.parameters) ? operation.parameters : [];
      const params = mergeParameters(doc, shared, own);
      const body = requestBodyOf(doc, operation.requestBody);
      routes.push({
        method: method.toUpperCase(),
        template,
        pathParams: orderedPathParams(
          template,
          params.filter((p) => p.in === 'path'),
        ),
        query: params.filter((p) => p.in === 'query').map(toSpec),
        headers: params.filter((p) => p.in === 'header').map(toSpec),
        ...(body ? { body: body.schema } : {}),
        bodyRequired: body?.required ?? false,
        auth: authOf(doc, operation.security ?? doc.security),
      });
    }
  }
  return routes;
}

/** Resolves every `$ref` in a schema (local `#/...` pointers only), depth-limited. */
export function resolveSchema(doc: Doc, schema: unknown, depth = 0): JsonSchema {
  if (depth > MAX_REF_DEPTH) return {};
  const resolved = deref(doc, schema, depth);
  if (!isObject(resolved)) return {};
  const out: Record<string, unknown> = { ...resolved };
  const refDepth = isObject(schema) && typeof schema.$ref === 'string' ? depth + 1 : depth;
  const sub = (value: unknown) => resolveSchema(doc, value, refDepth);
  if (resolved.items !== undefined) out.items = sub(resolved.items);
  if (isObject(resolved.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(resolved.properties).map(([name, value]) => [name, sub(value)]),
    );
  }
  if (isObject(resolved.additionalProperties)) {
    out.additionalProperties = sub(resolved.additionalProperties);
  }
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    const list = resolved[key];
    if (Array.isArray(list)) out[key] = list.map(sub);
  }
  delete out.$ref;
  return out as JsonSchema;
}

interface RawParam {
  name: string;
  in: string;
  required: boolean;
  schema: JsonSchema;
}

function mergeParameters(doc: Doc, shared: unknown[], own: unknown[]): RawParam[] {
  const byKey = new Map<string, RawParam>();
  for (const raw of [...shared, ...own]) {
    const param = deref(doc, raw, 0);
    if (!isObject(param) || typeof param.name !== 'string' || typeof param.in !== 'string') {
      continue;
    }
    byKey.set(`${param.in}:${param.name}`, {
      name: param.name,
      in: param.in,
      required: param.required === true || param.in === 'path',
      schema: resolveSchema(doc, param.schema),
    });
  }
  return [...byKey.values()];
}

/**
 * Every `{name}` of the template, in order. One the document forgot to declare still gets a
 * generic string, so the route is fuzzed rather than skipped.
 */
function orderedPathParams(template: string, declared: RawParam[]): ParamSpec[] {
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  return names.map((name) => {
    const param = declared.find((candidate) => candidate.name === name);
    return { name, required: true, schema: param?.schema ?? {} };
  });
}

function toSpec(param: RawParam): ParamSpec {
  return { name: param.name, required: param.required, schema: param.schema };
}

/** A JSON request body: its schema, or `{}` when it has none or only a non-JSON media type. */
function requestBodyOf(
  doc: Doc,
  raw: unknown,
): { schema: JsonSchema; required: boolean } | undefined {
  const body = deref(doc, raw, 0);
  if (!isObject(body)) return undefined;
  const content = isObject(body.content) ? body.content : {};
  const jsonType = Object.keys(content).find((type) => /json/i.test(type));
  const media = jsonType === undefined ? undefined : content[jsonType];
  const schema = isObject(media) ? resolveSchema(doc, media.schema) : {};
  return { schema, required: body.required === true };
}

function authOf(doc: Doc, security: unknown): AuthKind[] {
  if (!Array.isArray(security)) return [];
  const components = isObject(doc.components) ? doc.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  const kinds = new Set<AuthKind>();
  for (const requirement of security) {
    if (!isObject(requirement)) continue;
    for (const name of Object.keys(requirement)) {
      const scheme = deref(doc, schemes[name], 0);
      kinds.add(kindOf(scheme));
    }
  }
  return [...kinds];
}

function kindOf(scheme: unknown): AuthKind {
  if (!isObject(scheme)) return 'other';
  if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer') return 'bearer';
  if (scheme.type === 'apiKey' && scheme.in === 'cookie') return 'session';
  return 'other';
}

/** Follows `$ref`s (chains too) to what they point at; undefined for a pointer that leads nowhere. */
function deref(doc: Doc, value: unknown, depth: number): unknown {
  let current = value;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops += 1) {
    if (hops + depth > MAX_REF_DEPTH) return undefined;
    current = pointer(doc, current.$ref);
  }
  return current;
}

function pointer(doc: Doc, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let current: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
