import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { startInProcessService, type InProcessService } from '../e2e/support/in-process-service';
import { describeWithPostgres } from '@xaalis/testing';
import { openApiArtifacts } from './artifacts';

/**
 * The committed document (docs/openapi.json, what the e2e traffic is checked against) and the
 * client types generated from it are those of the code: `npm run openapi` writes them.
 */
describeWithPostgres('the committed OpenAPI document', () => {
  let service: InProcessService;

  beforeAll(async () => {
    service = await startInProcessService({}, { openApi: true });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('is the one the service serves, and the client types are generated from it', async () => {
    const served = (await (await fetch(`${service.url}/docs/openapi.json`)).json()) as object;
    for (const [file, contents] of Object.entries(openApiArtifacts(served))) {
      const stale = readFileSync(file, 'utf8') !== contents;
      expect({ file: relative(process.cwd(), file), stale }).toEqual({
        file: relative(process.cwd(), file),
        stale: false,
      });
    }
  });
});
