import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { SendResult, SendWebhookInput } from '../send-webhook';

const RUN = resolve(__dirname, '../../../../../tools/scripts/run.js');
const SCRIPT = resolve(__dirname, 'child-sender.ts');

export type ChildSend = Omit<SendWebhookInput, 'agent' | 'resolve' | 'rawBody'> & {
  rawBody: string;
};

/**
 * Runs the sends, in order, in a fresh Node process whose only trust addition is `caPath` as
 * NODE_EXTRA_CA_CERTS (none when omitted). The child gets a minimal environment on purpose, so an
 * NODE_EXTRA_CA_CERTS of the test runner's own cannot leak in.
 */
export function sendInChild(sends: readonly ChildSend[], caPath?: string): Promise<SendResult[]> {
  const env: NodeJS.ProcessEnv = { TZ: 'UTC' };
  if (caPath !== undefined) env.NODE_EXTRA_CA_CERTS = caPath;
  const child = spawn(process.execPath, [RUN, SCRIPT], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  child.stdin.end(JSON.stringify(sends));
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString('utf8').trim();
      if (code !== 0 || stdout === '') {
        fail(new Error(`child sender exited ${code}: ${Buffer.concat(err).toString('utf8')}`));
        return;
      }
      done(JSON.parse(stdout.split('\n').at(-1) ?? '[]') as SendResult[]);
    });
  });
}
