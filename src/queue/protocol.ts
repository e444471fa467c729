// What producers and workers exchange through Redis: the job's data (options as plain data), the
// entries of a job's event stream, and a RunResult with its error flattened to JSON and back.
import { CoderError, type ErrorCode } from '../errors.js';
import type { CoderStreamEvent } from '../events.js';
import type { OneShotOpts } from '../options.js';
import type { RunResult } from '../result.js';
import type { RunOrigin } from '../core/run/run-hooks.js';

/** Options that cannot travel as data, and what to do instead. */
export const callbackOptions = {
  onEvent: 'read handle.events on the producer instead',
  onRawLine: 'set events.raw and read handle.rawLines on the producer instead',
  signal: 'call handle.cancel() instead',
  canUseTool: 'register the policy on the workers (createWorker({ permissionPolicies })) and pass its name',
  onUserInput: 'a worker has nobody to ask: leave it out (the agent is told that nobody answered)',
} as const;

/**
 * What a queued run may be given: every run option that is data; tools, the canUseTool policy and MCP
 * servers by the names the workers registered them under. Which options a worker lets a job set is the
 * worker's decision (createWorker({ allowOptions })): by default none that choose what runs or where.
 */
export type QueueRunOptions = Omit<OneShotOpts, keyof typeof callbackOptions | 'tools' | 'collectEvents' | 'mcpServers'> & {
  /** Names of tools registered on the workers (createWorker({ tools })). */
  tools?: string[];
  /** Name of a canUseTool policy registered on the workers (createWorker({ permissionPolicies })). */
  canUseTool?: string;
  /** Names of MCP servers registered on the workers (createWorker({ mcpServers })). */
  mcpServers?: string[];
};

export interface JobEventsOptions {
  /** How many entries the job's event stream keeps (approximately: Redis trims whole nodes). Default 10,000. */
  maxLen?: number;
  /** Also put every raw stdout line in the stream (handle.rawLines). Default false. */
  raw?: boolean;
}

/** Which session a job runs in, and where the CLI keeps it. */
export interface JobSession {
  /** Continue this session (an earlier job's `result.sessionId`). */
  resume?: string;
  /** Start a new session from this one's history (where the CLI can fork). */
  fork?: string;
  /**
   * An absolute path every worker reaches (a shared volume) used as the CLI's config and session dir:
   * the dir `isolation: 'strict'` gives the CLI (the job's options must set it), kept between jobs.
   */
  dir?: string;
}

export interface JobData {
  cli: string;
  prompt: string;
  options: Record<string, unknown>;
  events: Required<JobEventsOptions>;
  session?: JobSession;
  /** Trace context carried from enqueue() to the worker (W3C trace-context fields), when a tracer is active. */
  trace?: Record<string, string>;
  /** How the attempt before this one failed, when the job is retried (written by the worker). */
  previousAttempt?: RunOrigin['previousAttempt'];
  /** How many of the job's starts had lost their worker when it was last retried (written by the worker). */
  lostStarts?: number;
}

export interface WireError {
  name: string;
  code: ErrorCode;
  message: string;
  provider?: string;
}

/** A result as the queue carries it: not its events, transcript or plan (a job's events are its stream). */
export type WireResult = Omit<RunResult<unknown, string>, 'error' | 'events' | 'messages' | 'plan'> & { error: WireError | undefined };

/** One entry of a job's event stream. */
export type StreamEntry =
  | { t: 'event'; event: CoderStreamEvent<string> }
  | { t: 'raw'; line: string }
  | { t: 'result'; result: WireResult };

export const STREAM_FIELD = 'e';
export const DEFAULT_EVENTS: Required<JobEventsOptions> = { maxLen: 10_000, raw: false };

/** Redis keys of a queue's coderline side (BullMQ keeps its own under `bull:<name>`). */
export function keysOf(name: string) {
  const base = `coderline:${name}`;
  return {
    stream: (id: string) => `${base}:events:${id}`,
    cancelled: (id: string) => `${base}:cancelled:${id}`,
    result: (id: string) => `${base}:result:${id}`,
    cancelChannel: `${base}:cancel`,
  };
}

export function toWire(result: RunResult<unknown, string>): WireResult {
  const { error, events: _events, messages: _messages, plan: _plan, ...rest } = result;
  return { ...rest, error: error && { name: error.name, code: error.code, message: error.message, ...(error.provider ? { provider: error.provider } : {}) } };
}

export function fromWire(result: WireResult): RunResult<unknown, string> {
  const { error } = result;
  if (!error) return { ...result, error: undefined };
  const rebuilt = new CoderError(error.code, error.message, error.provider === undefined ? {} : { provider: error.provider });
  rebuilt.name = error.name;
  return { ...result, error: rebuilt };
}
