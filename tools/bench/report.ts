import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname } from 'node:path';
import type { Measurement } from './measure';

/**
 * `ratio`: at least `min` times the baseline's rate; `rate`: at least `min` per second;
 * `latency`: a p99 below `maxP99Ms`; `none`: shown beside a baseline for context, not judged.
 */
export type Target =
  | { kind: 'none' }
  | { kind: 'ratio'; min: number }
  | { kind: 'rate'; min: number; unit: string }
  | { kind: 'latency'; maxP99Ms: number };

export interface Judged {
  subject: Measurement;
  baseline: Measurement;
  target: Target;
}

export interface Row extends Measurement {
  baseline: string | null;
  ratio: number | null;
  /**
   * The lowest and highest ratio of one round to the baseline's round beside it, where both were
   * measured in the same rounds: the spread the machine put on `ratio` during the run.
   */
  ratioRange: [number, number] | null;
  target: string | null;
  pass: boolean | null;
}

/** Each baseline, then what is judged against it. */
export function rows(judged: Judged[]): Row[] {
  return judged.flatMap(({ subject, baseline, target }): Row[] => {
    const ratio = baseline.rate === 0 ? 0 : subject.rate / baseline.rate;
    const { pass, wanted } = judge(subject, baseline, ratio, target);
    return [
      { ...baseline, baseline: null, ratio: null, ratioRange: null, target: null, pass: null },
      {
        ...subject,
        baseline: baseline.name,
        ratio,
        ratioRange: ratioRange(subject, baseline),
        target: wanted,
        pass,
      },
    ];
  });
}

/** Per-round ratios' extremes; null unless both ran the same rounds, more than one. */
export function ratioRange(subject: Measurement, baseline: Measurement): [number, number] | null {
  const ours = subject.roundRates ?? [];
  const theirs = baseline.roundRates ?? [];
  if (ours.length < 2 || ours.length !== theirs.length) return null;
  const ratios = ours.map((rate, round) => (theirs[round] === 0 ? 0 : rate / theirs[round]));
  return [Math.min(...ratios), Math.max(...ratios)];
}

function judge(subject: Measurement, baseline: Measurement, ratio: number, target: Target) {
  switch (target.kind) {
    case 'none':
      return { pass: null, wanted: `(vs ${baseline.name})` };
    case 'ratio':
      return { pass: ratio >= target.min, wanted: `≥ ${target.min}× ${baseline.name}` };
    case 'rate':
      return {
        pass: subject.rate >= target.min,
        wanted: `≥ ${target.min.toLocaleString('en-US')} ${target.unit}`,
      };
    case 'latency':
      return { pass: subject.p99Ms < target.maxP99Ms, wanted: `p99 < ${target.maxP99Ms} ms` };
    default: {
      const never: never = target;
      throw new Error(`unknown target ${JSON.stringify(never)}`);
    }
  }
}

export function printTable(table: Row[], out: NodeJS.WritableStream = process.stdout): void {
  const header = [
    'name',
    'rate/s',
    'p50 ms',
    'p99 ms',
    'cpu ms/op',
    'ratio',
    'rounds',
    'target',
    'result',
  ];
  const lines = table.map((row) => [
    row.name,
    Math.round(row.rate).toLocaleString('en-US'),
    row.p50Ms.toFixed(2),
    row.p99Ms.toFixed(2),
    row.cpuMsPerOp.toFixed(3),
    row.ratio === null ? '' : `${row.ratio.toFixed(2)}×`,
    row.ratioRange === null
      ? ''
      : `${row.ratioRange[0].toFixed(2)}–${row.ratioRange[1].toFixed(2)}`,
    row.target ?? '(baseline)',
    row.pass === null ? '' : row.pass ? 'PASS' : 'FAIL',
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column].length)),
  );
  const numeric = new Set([1, 2, 3, 4, 5, 6]);
  const format = (cells: string[]) =>
    cells
      .map((cell, column) =>
        numeric.has(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column]),
      )
      .join('  ')
      .trimEnd();
  out.write(`\n${format(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const line of lines) out.write(`${format(line)}\n`);
  const missed = table.filter((row) => row.pass === false);
  out.write(
    missed.length === 0
      ? '\nAll targets met.\n'
      : `\nTARGET MISSED (${missed.length}): ${missed.map((row) => row.name).join(', ')}\n`,
  );
}

export interface RunInfo {
  startedAt: string;
  secondsPerMeasurement: number;
  rounds: number;
  concurrency: number;
  server: string;
  /** 1-minute load average before the run: other work on the machine skews every rate. */
  loadBefore: number;
}

export function writeJson(file: string, info: RunInfo, table: Row[]): void {
  mkdirSync(dirname(file), { recursive: true });
  const machine = {
    node: process.version,
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
  };
  writeFileSync(file, `${JSON.stringify({ ...info, machine, results: table }, null, 2)}\n`);
}
