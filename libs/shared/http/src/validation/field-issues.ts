import type { ValidationError } from 'class-validator';
import type { FieldIssue } from '@xaalis/kernel';

/**
 * Flattens class-validator's error tree into CONTRACT 2 details: one entry per invalid field, its
 * JSON path written `customer.phone` or `items[2].amount`, its problems joined.
 */
export function toFieldIssues(errors: ValidationError[], parentPath = ''): FieldIssue[] {
  return errors.flatMap((error) => {
    const path = joinPath(parentPath, error.property);
    const own = ownConstraints(error).map(([name, message]) =>
      issueText(name, message, error.property),
    );
    const here: FieldIssue[] = own.length > 0 ? [{ field: path, issue: own.join('; ') }] : [];
    return [...here, ...toFieldIssues(error.children ?? [], path)];
  });
}

/** "must be an object" only when nothing more precise (say, "must be an array") was said. */
function ownConstraints(error: ValidationError): [string, string][] {
  const all = Object.entries(error.constraints ?? {});
  const precise = all.filter(([name]) => name !== 'nestedValidation');
  return precise.length > 0 ? precise : all;
}

/** DTO properties are never numeric, so a numeric property is an array index. */
function joinPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent === '' ? property : `${parent}.${property}`;
}

/** class-validator starts its messages with the property name, which `field` already gives. */
function issueText(constraint: string, message: string, property: string): string {
  if (constraint === 'whitelistValidation') return 'is not an allowed field';
  if (constraint === 'nestedValidation') return 'must be an object';
  const prefix = `${property} `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}
