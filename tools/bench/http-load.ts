import { Agent } from 'node:http';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { sendChecked, type LoadRequest } from './http-request';
import type { Loops, MeasureOptions, Subject } from './measure';

export type { LoadRequest } from './http-request';

/**
 * The HTTP load generator. Its closed loops run on a thread of their own
 * (`http-load.worker.ts`), as a real API client runs on another machine: on this process's
 * thread, every request's client work (building it, parsing the answer) took the event loop from
 * the server being measured, by about a fifth of a payment create. The raw `node:http` server and
 * the service are loaded by the same thread with the same keep-alive client, so both still pay the
 * same client cost, and the CPU column (the whole process) still counts it.
 *
 * `httpGet` and `httpPostJson` are for the few calls a bench makes before it measures (sign-up,
 * the first answer checked): they run here.
 */

/** What the main thread asks the load thread: `concurrency` closed loops for `durationMs`. */
export interface LoadRun {
  id: number;
  request: LoadRequest;
  concurrency: number;
  durationMs: number;
}

/** The load thread's answer: every operation's latency (ms), or the first wrong answer. */
export type LoadResult =
  { id: number; latencies: Float64Array; seconds: number } | { id: number; error: string };

const WORKER_FILE = resolve(__dirname, 'http-load.worker.ts');

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, (result: LoadResult) => void>();

function loadThread(): Worker {
  if (worker !== undefined) return worker;
  // The thread compiles its TypeScript the way tools/scripts/run.js does.
  const started = new Worker(
    `require('@swc-node/register'); require(${JSON.stringify(WORKER_FILE)});`,
    { eval: true },
  );
  started.on('message', (result: LoadResult) => {
    pending.get(result.id)?.(result);
    pending.delete(result.id);
  });
  started.on('error', (error) => {
    for (const settle of pending.values()) settle({ id: -1, error: String(error) });
    pending.clear();
    worker = undefined;
  });
  return (worker = started);
}

function runOnLoadThread(
  request: LoadRequest,
  concurrency: number,
  durationMs: number,
): ReturnType<Loops> {
  const id = (nextId += 1);
  return new Promise((settle, reject) => {
    pending.set(id, (result) => {
      if ('error' in result) reject(new Error(result.error));
      else settle({ latencies: Array.from(result.latencies), seconds: result.seconds });
    });
    loadThread().postMessage({ id, request, concurrency, durationMs } satisfies LoadRun);
  });
}

/** A subject whose operation is `request`, sent by the load thread. */
export function httpLoad(name: string, request: LoadRequest, options: MeasureOptions): Subject {
  return {
    name,
    loops: (concurrency, durationMs) => runOnLoadThread(request, concurrency, durationMs),
    options,
  };
}

/** Keep-alive sockets for the calls made here, as a real API client holds them. */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** Stops the load thread and closes this thread's sockets. */
export async function closeHttpLoad(): Promise<void> {
  agent.destroy();
  const stopping = worker;
  worker = undefined;
  await stopping?.terminate();
}

/** Resolves with the body of a 200; anything else rejects, so a wrong answer never counts. */
export function httpGet(url: string, headers: Record<string, string> = {}): Promise<string> {
  return sendChecked(agent, { method: 'GET', url, headers });
}

/** Resolves with the body of a 2xx to a JSON POST; anything else rejects. */
export function httpPostJson(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<string> {
  return sendChecked(agent, { method: 'POST', url, headers, body });
}
