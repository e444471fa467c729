// onUserInput: the agent asks the user something (Claude's AskUserQuestion, an MCP elicitation, a pi
// extension dialog) and the host answers. Same discipline as canUseTool: the callback gets a signal
// and a deadline; one that throws, answers something else or does not answer in time gives the CLI
// "no answer", reported as a non-fatal error event. Each question and answer is a `user_input` event.
import type { TranslatedEvent } from './events.js';
import { isJsonObject } from './schema/json.js';
import { answerWithin } from './schema/host-answer.js';

export interface UserInputQuestion {
  /** The key of this question's answer in `answers` (for Claude's AskUserQuestion: the question's text, which the CLI keys by). */
  id: string;
  text: string;
  /** The choices offered, when the question has them. */
  options?: string[];
  /** More than one option may be chosen: answer with an array of them. */
  multiSelect?: boolean;
  /** For an elicitation: the JSON Schema of the answer (an object schema, as MCP requires). */
  schema?: Record<string, unknown>;
}

export interface UserInputRequest {
  /** `tool`: the CLI's own ask tool; `elicitation`: an MCP server (or a custom tool's `ctx.elicit()`); `dialog`: a pi extension. */
  source: 'tool' | 'elicitation' | 'dialog';
  questions: UserInputQuestion[];
  /** The MCP server that asks (an elicitation; `coderline` for a custom tool). */
  server?: string;
  /** The tool use that asks, when the CLI names it. */
  toolUseId?: string;
}

/** The user's answers by question id (a string, or an array of strings for multiSelect; an elicitation's content object), or a refusal to answer. */
export type UserInputAnswer = { answers: Record<string, unknown> } | { decline: true };

export type OnUserInput = (request: UserInputRequest, context: { signal: AbortSignal }) => UserInputAnswer | Promise<UserInputAnswer>;

/** What the CLI is told: the answer, or that nobody answered (and why). */
export type UserInputReply = UserInputAnswer | { noAnswer: string };

/** A person answers: five minutes before the question counts as unanswered. */
export const DEFAULT_USER_INPUT_TIMEOUT_MS = 300_000;

export interface UserInputAskOptions {
  timeoutMs: number;
  /** Aborted when the question is withdrawn (the turn was interrupted, the session closed). */
  signal: AbortSignal;
  emit(event: TranslatedEvent): void;
  /** The CLI's record of the question, as the events' `raw`. */
  raw: unknown;
}

function isAnswer(value: unknown): value is UserInputAnswer {
  if (!isJsonObject(value)) return false;
  if (value.decline === true) return true;
  return isJsonObject(value.answers);
}

/** Asks the callback; always settles with a reply, emitting the request and answer events. */
export async function askUserInput(onUserInput: OnUserInput, request: UserInputRequest, options: UserInputAskOptions): Promise<UserInputReply> {
  const base = {
    type: 'user_input' as const,
    source: request.source,
    questions: request.questions,
    raw: options.raw,
    ...(request.server ? { server: request.server } : {}),
    ...(request.toolUseId ? { toolUseId: request.toolUseId } : {}),
  };
  options.emit({ ...base, phase: 'request' });
  let reply: UserInputReply;
  try {
    const answer = await answerWithin('onUserInput', (signal) => onUserInput(structuredClone(request), { signal }), options.timeoutMs, options.signal);
    if (!isAnswer(answer)) throw new Error(`onUserInput returned ${JSON.stringify(answer)}; expected { answers } or { decline: true }`);
    reply = 'answers' in answer ? { answers: { ...answer.answers } } : { decline: true };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    if (!options.signal.aborted) {
      options.emit({ type: 'error', code: 'invalid_options', fatal: false, message: `onUserInput failed, so the agent was told nobody answered: ${why}`, raw: options.raw });
    }
    reply = { noAnswer: why };
  }
  options.emit({ ...base, phase: 'answer', ...('answers' in reply ? { answers: reply.answers } : 'decline' in reply ? { decline: true } : {}) });
  return reply;
}

/** The text an answer gives a CLI that takes text: options joined, anything else as its JSON. */
export function answerText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(', ');
  return JSON.stringify(value) ?? '';
}
