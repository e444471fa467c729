// How much of a worker one job may hold: a job's own numbers (a stall timeout of a week, a million
// attempts, a 2 GiB line buffer, a schema nested ten thousand deep) would keep a worker slot, its memory
// or Redis busy for as long as the job likes. The worker names the bounds; a job past one resolves
// invalid_options naming the option and the bound, and its CLI never starts.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { JobData } from './protocol.js';

export interface JobLimits {
  /** The longest prompt, in UTF-8 bytes (default 1 MiB). */
  promptBytes: number;
  /** The longest `stallTimeoutMs` a job may ask for (default 30 min). */
  stallTimeoutMs: number;
  /** The longest `terminalGraceMs` (default 60 s). */
  terminalGraceMs: number;
  /** The longest `permissionTimeoutMs` (default 10 min). */
  permissionTimeoutMs: number;
  /** The largest `maxLineBytes` (default 32 MiB, the run's own default). */
  maxLineBytes: number;
  /** The most runs a job may have, its retries included (default 10). */
  attempts: number;
  /** The longest first retry delay (BullMQ's backoff delay; default 10 min). */
  backoffMs: number;
  /** The largest `events.maxLen` (default 100,000 entries). */
  eventsMaxLen: number;
  /** The most attachments (`files`, `images`, `codexImages` together; default 32). */
  attachments: number;
  /** The largest attached file, in bytes (default 20 MiB). */
  attachmentBytes: number;
  /** The largest `outputSchema`/`outputJsonSchema`, as JSON text in bytes (default 64 KiB). */
  outputSchemaBytes: number;
  /** The deepest nesting of objects and arrays in it (default 32). */
  outputSchemaDepth: number;
  /**
   * The largest entry of a job's event stream, as JSON in bytes (default 1 MiB): an event over it loses its
   * `raw` record, and one still over it (or a raw line over it) becomes a `progress` warning saying so. With
   * `eventsMaxLen` it bounds what one job's stream holds in Redis and in the worker.
   */
  streamEntryBytes: number;
}

export const DEFAULT_JOB_LIMITS: Readonly<JobLimits> = {
  promptBytes: 1024 * 1024,
  stallTimeoutMs: 30 * 60_000,
  terminalGraceMs: 60_000,
  permissionTimeoutMs: 10 * 60_000,
  maxLineBytes: 32 * 1024 * 1024,
  attempts: 10,
  backoffMs: 10 * 60_000,
  eventsMaxLen: 100_000,
  attachments: 32,
  attachmentBytes: 20 * 1024 * 1024,
  outputSchemaBytes: 64 * 1024,
  outputSchemaDepth: 32,
  streamEntryBytes: 1024 * 1024,
};

/** The worker's limits: its own where it names them (each a positive integer), the defaults elsewhere. */
export function jobLimitsOf(given: Partial<JobLimits> | undefined): JobLimits {
  const limits = { ...DEFAULT_JOB_LIMITS, ...given };
  for (const [name, value] of Object.entries(limits)) {
    if (!(Number.isSafeInteger(value) && value > 0)) throw new TypeError(`createWorker: jobLimits.${name} must be a positive integer, not ${String(value)}`);
  }
  return limits;
}

/** Run options that are numbers with a worker's bound of the same name. */
const boundedOptions = ['stallTimeoutMs', 'terminalGraceMs', 'permissionTimeoutMs', 'maxLineBytes'] as const;
const attachmentOptions = ['files', 'images', 'codexImages'] as const;

/** How deep objects and arrays nest in a JSON value; stops counting past `limit`. */
function depthOf(value: unknown, limit: number): number {
  if (value === null || typeof value !== 'object') return 0;
  if (limit <= 0) return 1;
  let deepest = 0;
  for (const item of Object.values(value)) deepest = Math.max(deepest, depthOf(item, limit - 1));
  return deepest + 1;
}

/** What BullMQ holds about a job's retries: its attempts, and its backoff's first delay. */
export interface JobRetries {
  attempts: number | undefined;
  backoffMs: number | undefined;
}

const over = (option: string, value: number, unit: string, bound: string, limit: number) => `${option}: ${value}${unit}, more than this worker's jobLimits.${bound} (${limit})`;

/** Every bound of the worker the job passes, each named; attachments are measured from `measureFrom` (none: not measured, their paths were refused). */
export async function limitIssues(data: JobData, retries: JobRetries, limits: JobLimits, measureFrom: string | undefined): Promise<string[]> {
  const { options } = data;
  const issues: string[] = [];
  const promptBytes = Buffer.byteLength(data.prompt);
  if (promptBytes > limits.promptBytes) issues.push(over('prompt', promptBytes, ' bytes', 'promptBytes', limits.promptBytes));
  for (const key of boundedOptions) {
    const value = options[key];
    if (typeof value === 'number' && value > limits[key]) issues.push(over(key, value, '', key, limits[key]));
  }
  if (retries.attempts !== undefined && retries.attempts > limits.attempts) issues.push(over('attempts', retries.attempts, '', 'attempts', limits.attempts));
  if (retries.backoffMs !== undefined && retries.backoffMs > limits.backoffMs) issues.push(over('backoff', retries.backoffMs, ' ms', 'backoffMs', limits.backoffMs));
  if (data.events.maxLen > limits.eventsMaxLen) issues.push(over('events.maxLen', data.events.maxLen, '', 'eventsMaxLen', limits.eventsMaxLen));
  for (const key of ['outputSchema', 'outputJsonSchema'] as const) {
    const schema = options[key];
    if (schema === undefined) continue;
    const bytes = Buffer.byteLength(JSON.stringify(schema) ?? '');
    if (bytes > limits.outputSchemaBytes) issues.push(over(key, bytes, ' bytes', 'outputSchemaBytes', limits.outputSchemaBytes));
    else if (depthOf(schema, limits.outputSchemaDepth + 1) > limits.outputSchemaDepth) issues.push(`${key}: nested deeper than this worker's jobLimits.outputSchemaDepth (${limits.outputSchemaDepth})`);
  }
  const attached = attachmentOptions.flatMap((key) => (Array.isArray(options[key]) ? (options[key] as string[]).map((path) => ({ key, path })) : []));
  if (attached.length > limits.attachments) issues.push(over('files/images/codexImages', attached.length, ' attachments', 'attachments', limits.attachments));
  else if (measureFrom !== undefined) {
    for (const { key, path } of attached) {
      // A missing file is the run's to report (an InvalidOptionsError naming it); only a size is checked here.
      const size = await stat(resolve(measureFrom, path)).then((found) => found.size, () => 0);
      if (size > limits.attachmentBytes) issues.push(over(key, size, ` bytes (${path})`, 'attachmentBytes', limits.attachmentBytes));
    }
  }
  return issues;
}
