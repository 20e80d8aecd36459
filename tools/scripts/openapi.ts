/**
 * `npm run openapi`: writes docs/openapi.json and the typed client's schema from the document the
 * gateway serves (the embedded service, started on a free port over DATA_DIR/openapi).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { startEmbeddedService } from '@xaalis/app-embedded';
import { loadConfig } from '@xaalis/config';
import { exitOnFailure } from '@xaalis/runtime';
import { openApiArtifacts } from '../openapi/artifacts';

async function main(): Promise<void> {
  const dataDir = join(process.env.DATA_DIR ?? '.data', 'openapi');
  const config = loadConfig({ ...process.env, PORT: '0', LOG_LEVEL: 'error', DATA_DIR: dataDir });
  const service = await startEmbeddedService(config);
  try {
    const document = (await (await fetch(`${service.url}/docs/openapi.json`)).json()) as object;
    for (const [file, contents] of Object.entries(openApiArtifacts(document))) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, contents);
      process.stdout.write(`wrote ${relative(process.cwd(), file)}\n`);
    }
  } finally {
    await service.close();
  }
}

main().catch(exitOnFailure);
