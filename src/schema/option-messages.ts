// The texts of option issues. The options moved from zod to valibot (docs/decisions.md); callers and
// tests read these messages, so they keep the wording zod gave them: `Too small: expected number to be >0`.
import type { BaseIssue, ObjectEntries } from 'valibot';

/** What a value is, in the words of the messages: `array`, `null`, `NaN`, `Infinity`, a class name, or its typeof. */
function kindOf(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? 'number' : String(value);
  if (typeof value !== 'object') return typeof value;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const proto: unknown = Object.getPrototypeOf(value);
  const name = proto !== Object.prototype && typeof value.constructor === 'function' ? value.constructor.name : '';
  return name || 'object';
}

/** The expected type of a failed schema check, as the messages name it. */
const expectedType: Readonly<Record<string, string>> = { strict_object: 'object', record: 'record' };

/** The message of a value outside a fixed list of options. */
export function oneOfMessage(options: readonly string[]): string {
  const quoted = options.map((option) => JSON.stringify(option));
  return quoted.length === 1 ? `Invalid input: expected ${quoted[0]}` : `Invalid option: expected one of ${quoted.join('|')}`;
}

/** The message of options that are not an object at all. */
export function notAnObjectMessage(value: unknown): string {
  return `Invalid input: expected object, received ${kindOf(value)}`;
}

/** The message of one issue of the options schema. */
export function optionIssueMessage(issue: BaseIssue<unknown>): string {
  const requirement = String(issue.requirement);
  switch (issue.type) {
    case 'union':
      return 'Invalid input';
    case 'finite':
      return `Invalid input: expected number, received ${kindOf(issue.input)}`;
    case 'integer':
      return 'Invalid input: expected int, received number';
    case 'gt_value':
      return `Too small: expected number to be >${requirement}`;
    case 'min_value':
      return `Too small: expected number to be >=${requirement}`;
    case 'min_length':
      return `Too small: expected string to have >=${requirement} characters`;
    default:
      return `Invalid input: expected ${expectedType[issue.type] ?? issue.type}, received ${kindOf(issue.input)}`;
  }
}

/** The messages of an object's issues: a missing key names the type its schema expects, like a wrong value. */
export function objectMessage(entries: ObjectEntries): (issue: BaseIssue<unknown>) => string {
  return (issue) => {
    const key = issue.path?.at(-1)?.key;
    const missing = issue.expected !== 'Object' && issue.expected !== 'never' && typeof key === 'string' ? entries[key] : undefined;
    return missing ? `Invalid input: expected ${missing.expects}, received undefined` : optionIssueMessage(issue);
  };
}
