import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { describeNeeding } from '@xaalis/pg-testing';

/**
 * A Kafka-protocol cluster for int tests: librdkafka's mock cluster, started by kcat (Debian
 * package `kcat`). Real brokers, partitions, consumer groups and offsets over the wire, in one
 * small process and a few milliseconds. Known differences from a real Kafka (see libs/shared/bus):
 * a fetch always waits its full `maxWaitTimeInMs`, a group's first join takes 3 s, and the admin
 * API's createTopics fails (topics are created on first use instead).
 */
export interface KafkaMock {
  /** `host:port` of each broker, for `KafkaConfig.brokers`. */
  brokers: string[];
  /** Kills the cluster; resolves once the process is gone. */
  stop(): Promise<void>;
}

const KCAT = 'kcat';
const BOOTSTRAP = /bootstrap\.servers=([^\s]+)/;

export async function startKafkaMock(
  options: { brokers?: number; timeoutMs?: number } = {},
): Promise<KafkaMock> {
  const brokerCount = options.brokers ?? 3;
  const timeoutMs = options.timeoutMs ?? 10_000;
  // `-C -t _boot` keeps kcat (and so the cluster) running, consuming a topic nobody writes to.
  // debug=mock makes librdkafka print the cluster's bootstrap servers.
  const child = spawn(
    KCAT,
    [
      '-b',
      'unused',
      '-X',
      `test.mock.num.brokers=${brokerCount}`,
      '-X',
      'debug=mock',
      '-C',
      '-t',
      '_boot',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  try {
    const brokers = await bootstrapServers(child, timeoutMs);
    return { brokers, stop: () => stop(child, killOnExit) };
  } catch (error) {
    await stop(child, killOnExit);
    throw error;
  }
}

function bootstrapServers(child: ChildProcess, timeoutMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let partial = '';
    const lastLines: string[] = [];
    const done = (error: Error | null, brokers?: string[]) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      child.off('error', onError);
      // Keep draining: debug=mock logs every request, and a full pipe would stall the cluster.
      child.stderr?.removeListener('data', onData);
      child.stderr?.resume();
      if (error) reject(error);
      else resolve(brokers!);
    };
    // Whole lines only: a chunk can end inside the broker list.
    const onData = (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const match = BOOTSTRAP.exec(line);
        if (match) return done(null, match[1]!.split(','));
        lastLines.push(line);
        if (lastLines.length > 5) lastLines.shift();
      }
    };
    const seen = () => [...lastLines, partial].join('\n').trim();
    const onExit = (code: number | null) =>
      done(new Error(`kcat exited (${code}) before the mock cluster was up: ${seen()}`));
    const onError = (error: Error) => done(error);
    const timer = setTimeout(
      () => done(new Error(`No mock cluster after ${timeoutMs} ms: ${seen()}`)),
      timeoutMs,
    );
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

async function stop(child: ChildProcess, killOnExit: () => void): Promise<void> {
  process.off('exit', killOnExit);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const forced = setTimeout(() => child.kill('SIGKILL'), 3_000);
  await exited;
  clearTimeout(forced);
}

let kcatFound: boolean | undefined;

/** Is kcat on the PATH? Synchronous: jest picks describe or describe.skip while collecting. */
export function kafkaAvailable(): boolean {
  kcatFound ??= spawnSync(KCAT, ['-V'], { stdio: 'ignore', timeout: 5_000 }).status === 0;
  return kcatFound;
}

/**
 * `describe` for suites that need the mock Kafka cluster. Without kcat the suite is skipped with
 * a warning, or fails when XAALIS_REQUIRE_SERVICES=true (CI must not go green by skipping).
 */
export function describeWithKafka(name: string, fn: () => void): void {
  const problem = kafkaAvailable()
    ? undefined
    : 'kcat not found (Debian/Ubuntu: apt-get install kcat)';
  describeNeeding('kcat', problem, name, fn);
}
