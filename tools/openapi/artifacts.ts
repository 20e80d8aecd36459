import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const ROOT = join(__dirname, '../..');

/** The document the service serves, as committed: what e2e traffic is checked against. */
export const DOCUMENT_FILE = join(ROOT, 'docs/openapi.json');

/** The typed client's schema, as openapi-typescript writes it from the document. */
export const CLIENT_SCHEMA_FILE = join(__dirname, 'client/generated/schema.d.ts');

/** The server the committed document names: the default `PUBLIC_BASE_URL`. */
export const COMMITTED_SERVER = 'http://localhost:3000';

/**
 * What `npm run openapi` commits, from the document the gateway serves: the document itself and
 * the client types openapi-typescript generates from it. The openapi int suite checks that the
 * committed files are these.
 */
export function openApiArtifacts(served: { servers?: unknown }): Record<string, string> {
  const document = `${JSON.stringify({ ...served, servers: [{ url: COMMITTED_SERVER }] }, null, 2)}\n`;
  const dir = mkdtempSync(join(tmpdir(), 'xaalis-openapi-'));
  try {
    const input = join(dir, 'openapi.json');
    const output = join(dir, 'schema.d.ts');
    writeFileSync(input, document);
    const generate = spawnSync(
      join(ROOT, 'node_modules/.bin/openapi-typescript'),
      [input, '--output', output],
      { encoding: 'utf8' },
    );
    if (generate.status !== 0) throw new Error(`openapi-typescript failed: ${generate.stderr}`);
    return { [DOCUMENT_FILE]: document, [CLIENT_SCHEMA_FILE]: readFileSync(output, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
