import { inspect } from 'node:util';
import type { FuzzFailure, FuzzResult } from './fuzz-runner';

export interface RunEnd {
  /** GET /health after the run: its status and body. */
  health: string;
  healthy: boolean;
  /** `balanced`, the audit's complaint, or why it was not checked. */
  ledger: string;
  ledgerBalanced: boolean;
  /** Resident memory of the service's process before and after, when it runs in this one. */
  memory?: { beforeMb: number; afterMb: number; heapAfterMb: number };
  notes: string[];
}

/** The report `npm run fuzz` prints: counts first, then each failure with what replays it. */
export function formatSummary(result: FuzzResult, end: RunEnd, seed: number): string {
  const { stats, failures } = result;
  const lines: string[] = [];
  const rate = stats.seconds > 0 ? Math.round(stats.cases / stats.seconds) : 0;
  lines.push(
    `fuzz: ${stats.cases} cases in ${stats.seconds.toFixed(1)} s (${rate}/s), seed ${seed}`,
  );
  lines.push(`  by status: ${formatCounts(stats.byStatus)}`);
  lines.push(`  5xx: ${stats.serverErrors}`);
  lines.push(`  health after the run: ${end.health}`);
  lines.push(`  ledger: ${end.ledger}`);
  if (end.memory) {
    lines.push(
      `  memory (rss): ${end.memory.beforeMb} MB before, ${end.memory.afterMb} MB after (heap ${end.memory.heapAfterMb} MB)`,
    );
  }
  for (const note of end.notes) lines.push(`  note: ${note}`);
  lines.push('', 'routes (cases, mean ms, answers by class):');
  for (const [route, counts] of Object.entries(stats.byRoute).sort(([a], [b]) =>
    a.localeCompare(b),
  )) {
    const { cases = 0, ms = 0, ...classes } = counts;
    const mean = cases > 0 ? Math.round(ms / cases) : 0;
    lines.push(
      `  ${route.padEnd(72)} ${String(cases).padStart(6)} ${String(mean).padStart(5)}  ${formatCounts(classes)}`,
    );
  }
  const signatures = Object.entries(stats.bySignature).sort(([, a], [, b]) => b - a);
  lines.push(
    '',
    `violations by kind (cases while generating): ${signatures.length === 0 ? 'none' : ''}`,
  );
  for (const [signature, times] of signatures)
    lines.push(`  ${String(times).padStart(6)}  ${signature}`);
  lines.push('', `failures: ${failures.length}`);
  failures.forEach((failure, index) => lines.push('', ...formatFailure(failure, index + 1)));
  return lines.join('\n');
}

export function formatFailure(failure: FuzzFailure, number: number): string[] {
  return [
    `#${number} ${failure.signature}`,
    `  replay: npm run fuzz -- --seed ${failure.seed} --path ${failure.path}   (${failure.shrinks} shrinks)`,
    ...failure.violations.map((violation) => `  ${violation.kind}: ${violation.detail}`),
    `  request:  ${failure.request}`,
    `  response: ${failure.response}`,
    `  case: ${inspect(abbreviated(failure.counterexample), { depth: 6, breakLength: 140 })}`,
  ];
}

function formatCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}: ${value}`)
    .join(', ');
}

/** Long strings (a 1 MiB body, a 5,000-character id) cut to what a reader needs. */
function abbreviated(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.length > 200 ? `${value.slice(0, 200)}… (${value.length} chars)` : value;
  }
  if (Array.isArray(value)) return value.slice(0, 20).map(abbreviated);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      // defineProperty: a generated `__proto__` key stays a key.
      Object.defineProperty(out, key, {
        value: abbreviated((value as Record<string, unknown>)[key]),
        enumerable: true,
      });
    }
    return out;
  }
  return value;
}
