/** The options of `npm run fuzz` (see tools/fuzz/fuzz.ts). */
export interface Args {
  runs: number;
  seed: number;
  path?: string;
  url?: string;
  databaseUrl?: string;
  maxFailures: number;
  shrinkMs: number;
  timeLimitMs?: number;
  out?: string;
}

export function parseArgs(argv: string[]): Args {
  const values = new Map<string, string>();
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index]!;
    const value = argv[index + 1];
    if (!flag.startsWith('--') || value === undefined) throw new Error(`bad argument ${flag}`);
    values.set(flag.slice(2), value);
    index += 1;
  }
  const known = [
    'runs',
    'seed',
    'path',
    'url',
    'database-url',
    'max-failures',
    'shrink-seconds',
    'time-limit-seconds',
    'out',
  ];
  for (const name of values.keys()) {
    if (!known.includes(name))
      throw new Error(`unknown option --${name} (known: ${known.join(', ')})`);
  }
  const int = (name: string, fallback: number) => {
    const raw = values.get(name);
    if (raw === undefined) return fallback;
    const parsed = Number(raw);
    if (!Number.isInteger(parsed)) throw new Error(`--${name} must be an integer`);
    return parsed;
  };
  const timeLimit = values.has('time-limit-seconds')
    ? int('time-limit-seconds', 0) * 1000
    : undefined;
  return {
    runs: int('runs', 10_000),
    // fast-check seeds are 32-bit integers.
    seed: int('seed', (Math.random() * 2 ** 31) | 0),
    path: values.get('path'),
    url: values.get('url')?.replace(/\/$/, ''),
    databaseUrl: values.get('database-url'),
    maxFailures: int('max-failures', 50),
    shrinkMs: int('shrink-seconds', 20) * 1000,
    ...(timeLimit !== undefined ? { timeLimitMs: timeLimit } : {}),
    out: values.get('out'),
  };
}
