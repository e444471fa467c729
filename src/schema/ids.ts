// Session ids reach a CLI's argv (`resume <id>`, `--session <id>`, `--resume=<id>`): one that starts
// with `-` becomes a flag where the id is a bare positional (codex `exec resume --last` resumed another
// thread; `--dangerously-bypass-approvals-and-sandbox` ran unsandboxed), and pi opens a value with a
// `/` as a file path. Every CLI makes UUIDs (pi UUIDv7) and pi takes ids of letters, digits, `.`, `_`
// and `-` that start and end with a letter or digit: that alphabet is the one accepted, from callers
// and from CLI output and stores alike (an adapter may narrow it further).
import { InvalidOptionsError } from '../errors.js';

const sessionIdPattern = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,254}[A-Za-z0-9])?$/;

/** What an accepted session id is, as error messages and the option docs say it. */
export const sessionIdRule = 'a session id is 1 to 256 letters, digits, ".", "_" or "-", starting and ending with a letter or digit';

/** A UUID, any version, either case: the only new-session id claude and copilot take. */
export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && sessionIdPattern.test(value);
}

/** Throws InvalidOptionsError naming `what` (the option or call the id came from) unless `value` is a session id. */
export function checkSessionId(value: unknown, what: string, provider?: string): asserts value is string {
  if (isSessionId(value)) return;
  // Cut: the id may be anything a caller or a CLI's store held.
  const shown = typeof value === 'string' ? JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value) : typeof value;
  throw new InvalidOptionsError([`${what}: ${shown} is not a session id (${sessionIdRule})`], provider);
}

/**
 * The issue with a resume or fork of an id that is no UUID, for a CLI that makes only UUIDs and reads any
 * other value as a prefix or a name (copilot `--resume=abc1234` opens whichever session starts so; codex
 * `resume <name>` the thread of that name): a job or a caller naming a part of an id would get another
 * session. Undefined when the target is fine.
 */
export function notWholeSessionId(target: { kind: string; sessionId?: string }, provider: string): string | undefined {
  if ((target.kind !== 'resume' && target.kind !== 'fork') || target.sessionId === undefined || isUuid(target.sessionId)) return undefined;
  return `the session id to ${target.kind}, "${target.sessionId.slice(0, 80)}", is not a whole ${provider} session id (a UUID): ${provider} would read it as a prefix or a name of another session`;
}
