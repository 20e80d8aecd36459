/**
 * The load thread of `http-load.ts`: runs closed loops of one request, checks every answer, and
 * sends the latencies back. The first wrong answer stops every loop and is reported.
 */
import { Agent } from 'node:http';
import { parentPort } from 'node:worker_threads';
import type { LoadResult, LoadRun } from './http-load';
import { checkedSender } from './http-request';
import { inThreadLoops } from './measure';

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

async function run({ id, request, concurrency, durationMs }: LoadRun): Promise<LoadResult> {
  try {
    const { latencies, seconds } = await inThreadLoops(checkedSender(agent, request))(
      concurrency,
      durationMs,
    );
    return { id, latencies: Float64Array.from(latencies), seconds };
  } catch (error) {
    return { id, error: error instanceof Error ? error.message : String(error) };
  }
}

const port = parentPort;
if (port === null) throw new Error('http-load.worker.ts runs as a worker thread');
port.on('message', (message: LoadRun) => {
  void run(message).then((result) => port.postMessage(result));
});
