// A job's result is recorded once: the first SET NX of its result key wins, whoever writes it (the
// worker that ran the job, a worker's failed handler, a producer that finds the job failed, lost, or
// cancelled before any worker took it), and the winner is then the last entry of the job's stream.
// Every reader, in any process, gets that one result.
import type { Redis } from 'ioredis';
import type { ErrorCode } from '../errors.js';
import { isJsonObject } from '../schema/json.js';
import { keysOf, STREAM_FIELD, type StreamEntry, type WireError, type WireResult } from './protocol.js';
import { withWriteRetries } from './stream-writer.js';
import { asStreamEvent, asUsage, isCount, isErrorCode, isInteger, isString, optional } from './wire-shapes.js';

type Keys = ReturnType<typeof keysOf>;

const STATUSES = new Set(['success', 'error', 'cancelled', 'stalled']);
function asWireError(value: unknown): WireError | undefined {
  if (!isJsonObject(value) || !isString(value.name) || !isErrorCode(value.code) || !isString(value.message) || !optional(value.provider, isString)) return undefined;
  return { name: value.name, code: value.code as ErrorCode, message: value.message, ...(isString(value.provider) ? { provider: value.provider } : {}) };
}

/**
 * A result read back from Redis (its key, a stream entry, BullMQ's return value), when it has the shape
 * the queue writes: rebuilt from the RunResult's own fields, each of its type, so nothing else an
 * attacker wrote beside them (an `events` array of any size, a prototype key) reaches a caller.
 */
export function asWireResult(value: unknown): WireResult | undefined {
  if (!isJsonObject(value) || !isString(value.status) || !STATUSES.has(value.status) || !isString(value.provider) || !isString(value.text)) return undefined;
  const usage = asUsage(value.usage);
  const error = value.error === undefined || value.error === null ? undefined : asWireError(value.error);
  if (!usage || (value.error != null && !error)) return undefined;
  const { sessionId, exitCode, signal, durationMs, pid, cliVersion } = value;
  if (!optional(sessionId, isString) || !optional(exitCode, isInteger) || !optional(signal, isString) || !isCount(durationMs) || !optional(pid, isInteger) || !optional(cliVersion, isString)) return undefined;
  return {
    provider: value.provider,
    status: value.status as WireResult['status'],
    text: value.text,
    output: value.output ?? undefined,
    sessionId: sessionId ?? undefined,
    usage,
    exitCode: exitCode ?? undefined,
    signal: signal ?? undefined,
    durationMs,
    error,
    pid: pid ?? undefined,
    cliVersion: cliVersion ?? undefined,
  };
}

/** A stream entry read back from Redis, when it has a shape the queue writes. */
function asStreamEntry(text: string | undefined): StreamEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
  if (!isJsonObject(value)) return undefined;
  if (value.t === 'event') {
    const event = asStreamEvent(value.event);
    return event && { t: 'event', event };
  }
  if (value.t === 'raw' && typeof value.line === 'string') return value as unknown as StreamEntry;
  const result = value.t === 'result' ? asWireResult(value.result) : undefined;
  return result && { t: 'result', result };
}

/** A stream entry with its Redis id. */
export interface StreamRecord {
  id: string;
  entry: StreamEntry;
}

/** The entries of XREAD/XRANGE records that have a shape the queue writes; `skipped` hears about the others. */
export function streamRecordsOf(records: Array<[string, string[]]>, skipped: () => void): StreamRecord[] {
  const parsed: StreamRecord[] = [];
  for (const [id, fields] of records) {
    const at = Array.isArray(fields) ? fields.indexOf(STREAM_FIELD) : -1;
    const entry = at < 0 ? undefined : asStreamEntry(fields[at + 1]);
    if (entry) parsed.push({ id, entry });
    else skipped();
  }
  return parsed;
}

/** Whether stream id `a` comes after `b` ("<ms>-<seq>", compared as numbers). */
export function isAfter(a: string, b: string): boolean {
  const [msA = 0, seqA = 0] = a.split('-').map(Number);
  const [msB = 0, seqB = 0] = b.split('-').map(Number);
  return msA > msB || (msA === msB && seqA > seqB);
}

/** The result of a job that ended without its CLI giving one (refused, cancelled while queued, lost, …). */
export function errorResult(provider: string, code: ErrorCode, message: string, status: WireResult['status'] = 'error', name = 'CoderError'): WireResult {
  return { provider, status, text: '', output: undefined, sessionId: undefined, usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 }, exitCode: undefined, signal: undefined, durationMs: 0, error: { name, code, message, provider }, pid: undefined, cliVersion: undefined };
}

/**
 * The most of a result key that is read: twice the longest line a run takes by default, past anything a
 * worker records. A value of hundreds of MB written by hand would otherwise be read whole (V8 refuses a
 * string over ~512 MB inside the Redis client) and parsed.
 */
const MAX_RESULT_BYTES = 64 * 1024 * 1024;

/** The job's recorded result, if any; one that does not parse, or is larger than any the queue writes, reads as a protocol error. */
export async function storedResult(redis: Redis, keys: Keys, id: string): Promise<WireResult | undefined> {
  // GETRANGE reads at most the bound (and one byte more, to tell a value past it); a missing key reads as "".
  const text = await redis.getrange(keys.result(id), 0, MAX_RESULT_BYTES);
  if (text === '' && (await redis.exists(keys.result(id))) === 0) return undefined;
  if (Buffer.byteLength(text) > MAX_RESULT_BYTES) return errorResult('unknown', 'protocol', `job ${id}: its recorded result is larger than any the queue writes (${MAX_RESULT_BYTES} bytes)`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return asWireResult(parsed) ?? errorResult('unknown', 'protocol', `job ${id}: its recorded result is not one the queue wrote`);
}

/** Records `wire` as the job's result unless one is recorded already; returns the one that counts. */
export async function recordResult(redis: Redis, keys: Keys, id: string, wire: WireResult, retentionSeconds: number, onError: (error: Error) => void): Promise<WireResult> {
  const first = await withWriteRetries(() => redis.set(keys.result(id), JSON.stringify(wire), 'EX', retentionSeconds, 'NX'));
  if (first !== 'OK') return (await storedResult(redis, keys, id)) ?? wire;
  const stream = keys.stream(id);
  try {
    const entry: StreamEntry = { t: 'result', result: wire };
    await withWriteRetries(async () => {
      const replies = await redis.multi().xadd(stream, '*', STREAM_FIELD, JSON.stringify(entry)).expire(stream, retentionSeconds).exec();
      const refused = replies?.find(([error]) => error);
      if (refused) throw refused[0]!;
    });
  } catch (error) {
    // The result key holds it: a producer that waits reads it from there.
    onError(new Error(`job ${id}: its result is recorded but not in its event stream: ${(error as Error).message}`, { cause: error }));
  }
  return wire;
}
