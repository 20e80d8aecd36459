import { parseArgs } from './fuzz-args';

describe('npm run fuzz options', () => {
  it('reads every option', () => {
    expect(
      parseArgs([
        '--runs',
        '100000',
        '--seed',
        '-42',
        '--path',
        '12:0:3',
        '--url',
        'http://localhost:3000/',
        '--database-url',
        'postgres://x/y',
        '--max-failures',
        '5',
        '--shrink-seconds',
        '3',
        '--time-limit-seconds',
        '60',
        '--out',
        'fuzz.json',
      ]),
    ).toEqual({
      runs: 100_000,
      seed: -42,
      path: '12:0:3',
      url: 'http://localhost:3000',
      databaseUrl: 'postgres://x/y',
      maxFailures: 5,
      shrinkMs: 3_000,
      timeLimitMs: 60_000,
      out: 'fuzz.json',
    });
  });

  it('has defaults, a random seed among them', () => {
    expect(parseArgs([])).toEqual({
      runs: 10_000,
      seed: expect.any(Number),
      maxFailures: 50,
      shrinkMs: 20_000,
    });
  });

  it('refuses what it does not know', () => {
    expect(() => parseArgs(['--runs', 'many'])).toThrow('--runs must be an integer');
    expect(() => parseArgs(['--speed', '2'])).toThrow('unknown option --speed');
    expect(() => parseArgs(['--runs'])).toThrow('bad argument --runs');
  });
});
