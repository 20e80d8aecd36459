import { describeWithPostgres } from '@xaalis/pg-testing';
import { runFuzzSession } from './fuzz-session';
import { formatFailure } from './summary';

/**
 * A few thousand cases in CI, the same ones each run (a fixed seed: a red CI names a finding, not
 * the day's luck); FUZZ_RUNS and FUZZ_SEED change them, and `npm run fuzz` explores further.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 3_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_125);
/** Generation stops here whatever RUNS says, so a slow machine fails on findings, not on time. */
const GENERATION_MS = 120_000;

/**
 * Issue 16: generated requests (fast-check) for every route of the OpenAPI document against the
 * embedded service, with every kind of caller. No 5xx, every error the CONTRACT 2 envelope with a
 * contract code and its status, no stack trace or SQL in any body; the service healthy and the
 * ledger balanced afterwards. A failure prints its seed and path: `npm run fuzz -- --seed S --path P`.
 */
describeWithPostgres('fuzz: generated requests against every documented route', () => {
  it(
    `holds the properties over ${RUNS} cases`,
    async () => {
      console.log(`fuzz e2e: seed ${SEED} (FUZZ_SEED=${SEED} replays the run)`);
      const { result, end, routes } = await runFuzzSession({
        runs: RUNS,
        seed: SEED,
        maxFailures: 10,
        shrinkMs: 5_000,
        timeLimitMs: GENERATION_MS,
      });

      // Every route of the document met cases: a route added later needs nothing registered here.
      expect(routes.length).toBeGreaterThanOrEqual(30);
      expect(Object.keys(result.stats.byRoute)).toEqual(
        expect.arrayContaining(routes.map((route) => `${route.method} ${route.template}`)),
      );
      expect(result.stats.cases).toBeGreaterThanOrEqual(Math.min(RUNS, 1_000));
      expect({
        failures: result.failures.map((failure, index) =>
          formatFailure(failure, index + 1).join('\n'),
        ),
        serverErrors: result.stats.serverErrors,
        health: end.health,
        ledger: end.ledger,
      }).toEqual({
        failures: [],
        serverErrors: 0,
        health: '200 {"status":"ok"}',
        ledger: 'balanced',
      });
    },
    GENERATION_MS + 180_000,
  );
});
