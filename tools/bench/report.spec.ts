import type { Measurement } from './measure';
import { ratioRange, rows, type Target } from './report';

function measured(name: string, rate: number, p99Ms: number): Measurement {
  return { name, rate, p50Ms: p99Ms / 2, p99Ms, operations: 100, seconds: 1, cpuMsPerOp: 0.1 };
}

const baseline = measured('raw', 1_000, 2);

function judged(subject: Measurement, target: Target) {
  const [first, second] = rows([{ baseline, subject, target }]);
  return { first, second };
}

describe('rows', () => {
  it('puts the baseline first, unjudged', () => {
    const { first } = judged(measured('subject', 600, 5), { kind: 'ratio', min: 0.5 });
    expect(first).toMatchObject({ name: 'raw', baseline: null, target: null, pass: null });
  });

  it('shows a context line with its ratio and no verdict', () => {
    expect(judged(measured('s', 250, 5), { kind: 'none' }).second).toMatchObject({
      ratio: 0.25,
      target: '(vs raw)',
      pass: null,
    });
  });

  it('judges a ratio to the baseline rate', () => {
    expect(judged(measured('s', 600, 5), { kind: 'ratio', min: 0.5 }).second).toMatchObject({
      ratio: 0.6,
      target: '≥ 0.5× raw',
      pass: true,
    });
    expect(judged(measured('s', 400, 5), { kind: 'ratio', min: 0.5 }).second.pass).toBe(false);
  });

  it('judges a rate in its unit', () => {
    const target: Target = { kind: 'rate', min: 1_000, unit: 'deliveries/s' };
    expect(judged(measured('s', 1_000, 5), target).second).toMatchObject({
      target: '≥ 1,000 deliveries/s',
      pass: true,
    });
    expect(judged(measured('s', 999, 5), target).second.pass).toBe(false);
  });

  it('shows the spread of the per-round ratios, where both sides ran the same rounds', () => {
    const subject = { ...measured('s', 500, 5), roundRates: [300, 600, 500] };
    const paired = { ...baseline, roundRates: [1_000, 1_000, 800] };

    expect(
      rows([{ baseline: paired, subject, target: { kind: 'ratio', min: 0.5 } }])[1],
    ).toMatchObject({ ratio: 0.5, ratioRange: [0.3, 0.625] });
    expect(ratioRange(subject, { ...baseline, roundRates: [1_000, 1_000] })).toBeNull();
    expect(
      ratioRange({ ...subject, roundRates: [500] }, { ...baseline, roundRates: [1_000] }),
    ).toBeNull();
    expect(ratioRange(subject, baseline)).toBeNull();
  });

  it('judges a latency by its p99, strictly below the bound', () => {
    const target: Target = { kind: 'latency', maxP99Ms: 250 };
    expect(judged(measured('s', 500, 249.9), target).second).toMatchObject({
      target: 'p99 < 250 ms',
      pass: true,
    });
    expect(judged(measured('s', 500, 250), target).second.pass).toBe(false);
  });
});
