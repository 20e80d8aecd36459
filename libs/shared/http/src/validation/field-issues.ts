import type { ValidationError } from 'class-validator';
import type { FieldIssue } from '@xaalis/kernel';

/**
 * Flattens class-validator's error tree into CONTRACT 2 details: one entry per invalid field, its
 * JSON path written `customer.phone` or `items[2].amount`, and what a client must fix there, in
 * the order it matters: a missing field is `is required`; a value of the wrong JSON type says the
 * type it must have, and not the bounds a value of that type would have to meet; otherwise each
 * problem, joined.
 */
export function toFieldIssues(errors: ValidationError[], parentPath = ''): FieldIssue[] {
  return errors.flatMap((error) => {
    const path = joinPath(parentPath, error.property);
    const issue = issueOf(error);
    const here: FieldIssue[] = issue === undefined ? [] : [{ field: path, issue }];
    return [...here, ...toFieldIssues(error.children ?? [], path)];
  });
}

/** The checks of a JSON type (`each` ones included: their message says "each value in"). */
const TYPE_CHECKS = new Set(['isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject']);

function issueOf(error: ValidationError): string | undefined {
  const constraints = ownConstraints(error);
  if (constraints.length === 0) return undefined;
  if (constraints.some(([name]) => name === 'whitelistValidation'))
    return 'is not an allowed field';
  // Optional fields are not validated when absent, so an absent value is a required one.
  if (error.value === undefined) return 'is required';
  const types = constraints.filter(([name]) => TYPE_CHECKS.has(name));
  const shown = types.length > 0 ? types : constraints;
  return shown.map(([name, message]) => issueText(name, message, error.property)).join('; ');
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

/**
 * class-validator's default messages in plain words. Its messages start with the property name,
 * which `field` already gives; `each` ones with "each value in <property>".
 */
const PLAIN: ReadonlyArray<[RegExp, (n: string) => string]> = [
  [/^must be an integer number$/, () => 'must be an integer'],
  [/^must not be less than (-?\d+)$/, (n) => `must be at least ${n}`],
  [/^must not be greater than (-?\d+)$/, (n) => `must be at most ${n}`],
  [
    /^must be longer than or equal to (\d+) characters$/,
    (n) => `must be at least ${count(n, 'character')}`,
  ],
  [
    /^must be shorter than or equal to (\d+) characters$/,
    (n) => `must be at most ${count(n, 'character')}`,
  ],
  [/^must contain at least (\d+) elements$/, (n) => `must have at least ${count(n, 'item')}`],
  [/^must contain no more than (\d+) elements$/, (n) => `must have at most ${count(n, 'item')}`],
];

const count = (n: string, noun: string) => `${n} ${noun}${n === '1' ? '' : 's'}`;

function issueText(constraint: string, message: string, property: string): string {
  if (constraint === 'nestedValidation') return 'must be an object';
  const each = `each value in ${property} `;
  if (message.startsWith(each)) return `each item ${plain(message.slice(each.length))}`;
  const prefix = `${property} `;
  return plain(message.startsWith(prefix) ? message.slice(prefix.length) : message);
}

function plain(message: string): string {
  for (const [pattern, say] of PLAIN) {
    const found = pattern.exec(message);
    if (found) return say(found[1] ?? '');
  }
  return message;
}
