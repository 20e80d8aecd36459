import { DomainError, type FieldIssue, validationError } from '@xaalis/kernel';
import { JSON_MAX_DEPTH, JSON_MAX_MEMBERS, unstorableTextIssue } from './text-rules';

/** Enough to fix a request by; a body of a million bad strings does not get a million lines. */
const MAX_ISSUES = 10;

/** An object or array met in the walk, with the way back to the root for its JSON path. */
interface Level {
  value: object;
  depth: number;
  parent: Level | undefined;
  key: string | number;
}

/**
 * The CONTRACT 2 rules a parsed JSON body meets beyond being JSON: at most 32 levels of objects
 * and arrays, no object of more than 1,000 members, and no string, value or key, holding NUL or
 * an unpaired surrogate. One walk with
 * its own queue, not recursion: the nesting that would overflow a recursive walk (as it did
 * class-transformer's, behind the parser) is what it refuses.
 *
 * `text` is what `value` was parsed from. JSON carries neither character raw (a control
 * character in a string is a syntax error, and bytes decoded as UTF-8 never give a lone
 * surrogate), only as a `\u` escape: without one in the text, the strings need no look.
 */
export function jsonBodyProblem(value: unknown, text: string): DomainError | undefined {
  const checkStrings = text.includes('\\u');
  if (typeof value !== 'object' || value === null) {
    const issue =
      checkStrings && typeof value === 'string' ? unstorableTextIssue(value) : undefined;
    return issue === undefined ? undefined : validationError([{ field: '', issue }]);
  }
  const walk: Walk = {
    checkStrings,
    issues: [],
    queue: [{ value, depth: 1, parent: undefined, key: '' }],
  };
  // Breadth first, so the issues come shallow fields first and, within an object, in its order.
  for (let next = 0; next < walk.queue.length && walk.issues.length < MAX_ISSUES; next += 1) {
    const level = walk.queue[next];
    if (Array.isArray(level.value)) {
      for (let index = 0; index < level.value.length; index += 1) {
        if (!visit(walk, level, index, level.value[index])) return tooDeep(pathOf(level, index));
      }
      continue;
    }
    const object = level.value as Record<string, unknown>;
    let members = 0;
    for (const key in object) {
      if ((members += 1) > JSON_MAX_MEMBERS) return tooManyMembers(pathOf(level, key), level);
      const issue = checkStrings ? unstorableTextIssue(key) : undefined;
      if (issue !== undefined)
        walk.issues.push({ field: pathOf(level, key), issue: `name ${issue}` });
      if (!visit(walk, level, key, object[key])) return tooDeep(pathOf(level, key));
    }
  }
  return walk.issues.length === 0 ? undefined : validationError(walk.issues.slice(0, MAX_ISSUES));
}

interface Walk {
  checkStrings: boolean;
  issues: FieldIssue[];
  queue: Level[];
}

/** Checks a string, queues an object or array; false when that would go too deep. */
function visit(walk: Walk, level: Level, key: string | number, child: unknown): boolean {
  if (typeof child === 'string') {
    const issue = walk.checkStrings ? unstorableTextIssue(child) : undefined;
    if (issue !== undefined) walk.issues.push({ field: pathOf(level, key), issue });
  } else if (typeof child === 'object' && child !== null) {
    if (level.depth === JSON_MAX_DEPTH) return false;
    walk.queue.push({ value: child, depth: level.depth + 1, parent: level, key });
  }
  return true;
}

function tooDeep(field: string): DomainError {
  return validationError(
    [{ field, issue: `is nested deeper than ${JSON_MAX_DEPTH} levels` }],
    `The request body is nested deeper than ${JSON_MAX_DEPTH} levels of objects and arrays.`,
  );
}

function tooManyMembers(firstOver: string, level: Level): DomainError {
  const where = level.parent === undefined ? 'the body' : pathOf(level.parent, level.key);
  return validationError(
    [{ field: firstOver, issue: `is past the ${JSON_MAX_MEMBERS} fields an object may have` }],
    `An object in the request (${where}) has more than ${JSON_MAX_MEMBERS} fields.`,
  );
}

/** `customer.phone`, `items[2].amount`: as the validation pipe names fields. */
function pathOf(level: Level, key: string | number): string {
  const keys: Array<string | number> = [key];
  for (let at = level; at.parent !== undefined; at = at.parent) keys.push(at.key);
  let path = '';
  for (let index = keys.length - 1; index >= 0; index -= 1) {
    const part = keys[index];
    path = typeof part === 'number' ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`;
  }
  return path;
}
