// The shape of a job's data, checked where a job is made (enqueue) and again where it is read (the
// worker): Redis holds whatever anyone with access wrote there, so every problem is an issue in an
// InvalidOptionsError, never a throw of another kind, whatever the value.
import { InvalidOptionsError } from '../errors.js';
import { checkSessionId } from '../schema/ids.js';
import { isJsonObject } from '../schema/json.js';
import { parseOptions } from '../core/run/validate.js';
import { optionFields } from '../options.js';
import type { JobData, JobSession } from './protocol.js';

const isPlain = (value: unknown): value is Record<string, unknown> => {
  if (!isJsonObject(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
const isPositiveInteger = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && value > 0;

/** Issues with the options a job carries: the named ones by type, the rest against the run options' schema. */
function optionIssues(options: unknown): string[] {
  if (!isPlain(options)) return ['options must be an object of run options'];
  const issues: string[] = [];
  const { tools, canUseTool, mcpServers, ...rest } = options;
  if (tools !== undefined && !isStringList(tools)) issues.push('tools: pass the names of tools registered on the workers (createWorker({ tools }))');
  if (canUseTool !== undefined && typeof canUseTool !== 'string') issues.push('canUseTool: pass the name of a policy registered on the workers (createWorker({ permissionPolicies }))');
  if (mcpServers !== undefined && !isStringList(mcpServers)) issues.push('mcpServers: pass the names of MCP servers registered on the workers (createWorker({ mcpServers }))');
  try {
    parseOptions(optionFields.oneShot, rest, 'queued run options');
  } catch (error) {
    if (!(error instanceof InvalidOptionsError)) throw error;
    issues.push(...error.issues);
  }
  return issues;
}

/** checkSessionId's issue for a value that is no session id, as one of the job's issues. */
function sessionIdIssues(value: unknown, what: string): string[] {
  try {
    checkSessionId(value, what);
    return [];
  } catch (error) {
    return (error as InvalidOptionsError).issues;
  }
}

function sessionIssues(session: unknown): string[] {
  if (session === undefined) return [];
  if (!isPlain(session)) return ['session must be an object'];
  const issues: string[] = [];
  for (const key of Object.keys(session)) {
    if (key !== 'resume' && key !== 'fork' && key !== 'dir') issues.push(`unknown option "session.${key}"`);
    else if (typeof session[key] !== 'string' || session[key] === '') issues.push(`session.${key} must be a non-empty string`);
    // The id reaches the CLI's argv: one like `--last` or `../x` would be a flag or a path there.
    else if (key !== 'dir') issues.push(...sessionIdIssues(session[key], `session.${key}`));
  }
  if (session.resume !== undefined && session.fork !== undefined) issues.push('session: resume or fork, not both');
  return issues;
}

function eventsIssues(events: unknown): string[] {
  if (!isPlain(events)) return ['events must be an object'];
  const issues: string[] = [];
  if (!isPositiveInteger(events.maxLen)) issues.push('events.maxLen must be a positive integer');
  if (typeof events.raw !== 'boolean') issues.push('events.raw must be a boolean');
  return issues;
}

/** Fields the queue itself adds to a job's data between attempts. */
function internalIssues(data: Record<string, unknown>): string[] {
  const issues: string[] = [];
  if (data.trace !== undefined && !(isPlain(data.trace) && Object.values(data.trace).every((value) => typeof value === 'string'))) issues.push('trace must be an object of strings');
  const previous = data.previousAttempt;
  if (previous !== undefined && !(isPlain(previous) && typeof previous.message === 'string' && (previous.errorCode === undefined || typeof previous.errorCode === 'string') && typeof previous.delayMs === 'number')) {
    issues.push('previousAttempt is not one the queue wrote');
  }
  if (data.lostStarts !== undefined && !(Number.isInteger(data.lostStarts) && (data.lostStarts as number) >= 0)) issues.push('lostStarts is not one the queue wrote');
  return issues;
}

const KNOWN_FIELDS = new Set(['cli', 'prompt', 'options', 'events', 'session', 'trace', 'previousAttempt', 'lostStarts']);

/** The job's data when its shape is one enqueue() makes; otherwise an InvalidOptionsError listing every issue. */
export function checkedJobData(value: unknown): JobData {
  if (!isPlain(value)) throw new InvalidOptionsError(['the job data is not an object (or was no JSON at all)']);
  const issues: string[] = [];
  if (typeof value.cli !== 'string' || value.cli === '') issues.push('cli must be a CLI name');
  if (typeof value.prompt !== 'string') issues.push('prompt must be a string');
  issues.push(...optionIssues(value.options), ...eventsIssues(value.events), ...sessionIssues(value.session), ...internalIssues(value));
  for (const key of Object.keys(value)) if (!KNOWN_FIELDS.has(key)) issues.push(`unknown field "${key}" in the job data`);
  if (issues.length > 0) throw new InvalidOptionsError(issues, typeof value.cli === 'string' ? value.cli : undefined);
  return value as unknown as JobData & { session?: JobSession };
}
