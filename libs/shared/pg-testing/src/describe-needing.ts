import { servicesRequired } from './test-postgres';

/**
 * `describe` for a suite that needs something this machine may lack (Postgres, kcat, Chromium,
 * root). `problem` says what is missing, or is undefined when nothing is: then the suite is
 * skipped with a warning, or fails when XAALIS_REQUIRE_SERVICES=true (CI must not go green by
 * skipping).
 */
export function describeNeeding(
  need: string,
  problem: string | undefined,
  name: string,
  fn: () => void,
): void {
  if (problem === undefined) {
    describe(name, fn);
    return;
  }
  if (servicesRequired()) {
    describe(name, () => {
      it(`needs ${need} (XAALIS_REQUIRE_SERVICES=true)`, () => {
        throw new Error(`${name} cannot run: ${problem}`);
      });
    });
    return;
  }
  console.warn(`Skipped (needs ${need}): ${name}. ${problem}.`);
  describe.skip(name, fn);
}
