import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { DomainError, type FieldIssue } from '@xaalis/kernel';

export type MessageClass<T extends object> = new () => T;

/**
 * Turns a bus payload into a validated instance of its contract class, or throws
 * `validation_error` with one `{field, issue}` per broken rule (CONTRACT 2).
 *
 * Unknown fields are stripped, not refused: a consumer still running the previous release must
 * accept events from a producer that already added a field (tolerant reader), and stripping
 * means a handler never sees a field nobody validated.
 *
 * `at` is where the payload sits in a larger message (`data.object`): issues are named from there.
 */
export function validateMessage<T extends object>(
  Class: MessageClass<T>,
  payload: unknown,
  at = '',
): T {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new DomainError('validation_error', `${Class.name} must be a JSON object.`, [
      { field: at, issue: 'must be an object' },
    ]);
  }
  const instance = plainToInstance(Class, payload);
  const errors = validateSync(instance, { whitelist: true, forbidUnknownValues: true });
  if (errors.length > 0) {
    throw new DomainError('validation_error', `${Class.name} is invalid.`, toIssues(errors, at));
  }
  return instance;
}

function toIssues(errors: ValidationError[], parent: string): FieldIssue[] {
  return errors.flatMap((error) => {
    const field = pathOf(parent, error.property);
    const own = Object.values(error.constraints ?? {}).map((issue) => ({ field, issue }));
    return [...own, ...toIssues(error.children ?? [], field)];
  });
}

/** JSON path as the HTTP error envelope shows it: `source.revision`, `items[0].id`. */
function pathOf(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent === '' ? property : `${parent}.${property}`;
}
