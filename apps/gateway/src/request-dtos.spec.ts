import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { getMetadataStorage } from 'class-validator';
import { PIPE_RULES } from '@xaalis/http';
import { compareWithLibraries } from '@xaalis/kernel/testing';

/** Every `*.dto.ts` and `*.query.ts` of the gateway: the shapes of what clients send. */
function requestClasses(folder: string): Array<[string, new () => object]> {
  return (
    readdirSync(folder, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && /\.(dto|query)\.ts$/.test(entry.name))
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- every DTO file, found on disk
      .flatMap((entry) => Object.entries(require(join(entry.parentPath, entry.name)) as object))
      .filter(
        (entry): entry is [string, new () => object] =>
          typeof entry[1] === 'function' &&
          getMetadataStorage().getTargetValidationMetadatas(entry[1], '', false, false).length > 0,
      )
  );
}

const classes = requestClasses(__dirname);

describe('request DTOs through the validation pipe', () => {
  it('finds the DTOs', () => {
    expect(classes.map(([name]) => name)).toEqual(
      expect.arrayContaining(['CreatePaymentDto', 'ListPaymentsQuery', 'CreateRefundDto']),
    );
  });

  it.each(classes)('takes the fast path exactly where class-validator accepts a %s', (_, Class) => {
    const { answered, declined } = compareWithLibraries(Class, PIPE_RULES, 150);
    expect(answered).toBeGreaterThan(0);
    expect(declined).toBeGreaterThan(0);
  });
});
