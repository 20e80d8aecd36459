/**
 * Test fixture: a process that takes the generated secrets of the DATA_DIR given as its first
 * argument and prints them, as each app of `start:distributed` takes them at boot. It does so at
 * the instant (ms since the epoch) given as its second argument, so that processes started
 * together reach the file together (generated-secrets.spec.ts).
 */
import { loadConfig } from '@xaalis/config';
import { withGeneratedSecrets } from '../generated-secrets';

const [dataDir, at] = process.argv.slice(2);
setTimeout(
  () => {
    const config = withGeneratedSecrets(loadConfig({ DATA_DIR: dataDir! }));
    process.stdout.write(`${config.secretHashKey} ${config.authSecret}\n`);
  },
  Math.max(0, Number(at) - Date.now()),
);
