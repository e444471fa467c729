// The shapes of what the queue reads back from Redis, checked field by field: a stream's events and a
// result's usage and error code reach a caller's code, which switches on them and reads their fields
// as the types say. Anyone who can write to Redis can write these, so an entry of another shape is
// skipped (events) or settles the job as a protocol error (results), never handed on.
import type { ErrorCode } from '../errors.js';
import type { CoderEventType, CoderStreamEvent, Usage } from '../events.js';
import { isJsonObject } from '../schema/json.js';

export const isString = (value: unknown): value is string => typeof value === 'string';
export const isInteger = (value: unknown): value is number => Number.isSafeInteger(value);
export const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;
/** Absent (undefined, or null as JSON may carry it) or of the type `is` checks. */
export const optional = <T>(value: unknown, is: (item: unknown) => item is T): value is T | undefined | null => value === undefined || value === null || is(value);

/** Every ErrorCode, so a code read back is one a caller's switch knows (the compiler keeps the list whole). */
const ERROR_CODES: Readonly<Record<ErrorCode, true>> = {
  binary_not_found: true, version_unsupported: true, feature_not_supported: true, platform_not_supported: true, invalid_options: true, session_not_found: true, exit: true, stalled: true,
  aborted: true, auth: true, rate_limit: true, server: true, context_too_large: true, max_turns: true, budget: true, invalid_output: true, protocol: true,
};

export const isErrorCode = (value: unknown): value is ErrorCode => isString(value) && Object.hasOwn(ERROR_CODES, value);

const USAGE_FIELDS = ['inputTokens', 'cachedInputTokens', 'outputTokens', 'reasoningTokens'] as const;

/** A usage of four counts (and a cost, when there is one), rebuilt from its own fields. */
export function asUsage(value: unknown): Usage | undefined {
  if (!isJsonObject(value) || !USAGE_FIELDS.every((field) => isCount(value[field])) || !optional(value.costUsd, isCount)) return undefined;
  const usage: Usage = { inputTokens: value.inputTokens as number, cachedInputTokens: value.cachedInputTokens as number, outputTokens: value.outputTokens as number, reasoningTokens: value.reasoningTokens as number };
  return isCount(value.costUsd) ? { ...usage, costUsd: value.costUsd } : usage;
}

type Check = (value: unknown) => boolean;
const oneOf = (...values: string[]): Check => (value) => isString(value) && values.includes(value);
const isBoolean: Check = (value) => typeof value === 'boolean';
const isUsage: Check = (value) => asUsage(value) !== undefined;

/** Each event type's fields a reader relies on: required ones, and optional ones checked when present. */
const EVENT_FIELDS: Readonly<Record<CoderEventType, { required?: Record<string, Check>; optional?: Record<string, Check> }>> = {
  init: { optional: { sessionId: isString, model: isString, cwd: isString } },
  message: { required: { role: oneOf('assistant', 'user'), text: isString, delta: isBoolean }, optional: { reset: isBoolean, id: isString } },
  reasoning: { required: { text: isString, delta: isBoolean }, optional: { id: isString } },
  tool_use: { required: { id: isString, name: isString } },
  tool_result: { required: { id: isString, isError: isBoolean }, optional: { name: isString } },
  progress: { required: { kind: oneOf('retry', 'status', 'warning', 'tool_output', 'unknown', 'other') }, optional: { subtype: isString, message: isString } },
  usage: { required: { usage: isUsage } },
  error: { required: { code: isErrorCode, message: isString, fatal: isBoolean }, optional: { httpStatus: isInteger } },
  stderr: { required: { line: isString } },
  permission: { required: { phase: oneOf('request', 'decision'), toolName: isString }, optional: { toolUseId: isString, decision: oneOf('allow', 'deny'), message: isString } },
  plan: { required: { items: Array.isArray }, optional: { toolUseId: isString } },
  subagent: { required: { phase: oneOf('started', 'progress', 'completed'), taskId: isString }, optional: { toolUseId: isString, description: isString, message: isString } },
  compaction: { required: { phase: oneOf('started', 'completed') }, optional: { tokensBefore: isCount, tokensAfter: isCount } },
  user_input: { required: { phase: oneOf('request', 'answer'), source: oneOf('tool', 'elicitation', 'dialog'), questions: Array.isArray }, optional: { toolUseId: isString, server: isString } },
  user_message: { required: { text: isString } },
  done: { required: { status: oneOf('success', 'error') }, optional: { text: isString, sessionId: isString } },
};

/** A stream's event when it has the shape of one the SDK makes: a known type, its provider and time, its fields' types. */
export function asStreamEvent(value: unknown): CoderStreamEvent<string> | undefined {
  if (!isJsonObject(value) || !isString(value.type) || !Object.hasOwn(EVENT_FIELDS, value.type) || !isString(value.provider) || !isCount(value.ts)) return undefined;
  const fields = EVENT_FIELDS[value.type as CoderEventType];
  const fits = Object.entries(fields.required ?? {}).every(([key, check]) => check(value[key])) && Object.entries(fields.optional ?? {}).every(([key, check]) => value[key] === undefined || check(value[key]));
  return fits ? (value as unknown as CoderStreamEvent<string>) : undefined;
}
