/**
 * Sends webhooks the way a deployed dispatcher does: no `ca` option, trust only from the system
 * store plus NODE_EXTRA_CA_CERTS, which Node reads once at start. Run by `sendInChild`, through
 * tools/scripts/run.js; reads `SendWebhookInput`s as JSON on stdin and prints the results.
 */
import { sendWebhook, type SendResult, type SendWebhookInput } from '../send-webhook';
import { createWebhookAgent } from '../webhook-agent';

async function main(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const sends = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SendWebhookInput[];
  const agent = createWebhookAgent();
  const results: SendResult[] = [];
  for (const send of sends) results.push(await sendWebhook({ ...send, agent }));
  agent.destroy();
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

void main();
