/**
 * Asserts that no secret appears in any process output: keys, webhook secrets, passwords and
 * session tokens are shown to their owner once, over HTTP, and never logged.
 */
export function expectNoSecretsIn(
  outputs: Array<{ name: string; text: string }>,
  secrets: string[],
): void {
  expect(secrets.length).toBeGreaterThan(0);
  const leaks: string[] = [];
  for (const secret of new Set(secrets)) {
    // A short value could appear by chance; every secret here is long and random.
    if (secret.length < 12) throw new Error(`"${secret}" is too short to look for reliably`);
    for (const output of outputs) {
      if (output.text.includes(secret))
        leaks.push(`${mask(secret)} in the output of ${output.name}`);
    }
  }
  expect(leaks).toEqual([]);
}

const mask = (secret: string) => `${secret.slice(0, 10)}…`;
