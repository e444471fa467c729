// The parts of pi's `--mode json` records the translator reads (docs/json.md of pi, checked against
// the real 0.73 and 1.x output). Everything is optional: records are untrusted input.
import { isJsonObject } from '../../schema/json.js';

export interface PiUsage {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
  totalTokens?: number;
  cost?: { total?: number };
}

export type PiContentBlock =
  | { type: 'text'; text?: string }
  | { type: 'thinking'; thinking?: string }
  | { type: 'toolCall'; id?: string; name?: string; arguments?: unknown }
  | { type: string; [key: string]: unknown };

export interface PiMessage {
  role?: string;
  content?: PiContentBlock[] | string;
  model?: string;
  usage?: PiUsage;
  /** Trustworthy on `message_end` only (a placeholder on `message_start`). */
  stopReason?: 'stop' | 'toolUse' | 'error' | 'aborted' | 'length' | string;
  errorMessage?: string;
}

export interface PiAssistantMessageEvent {
  type?: string;
  contentIndex?: number;
  delta?: string;
}

export interface PiToolResult {
  content?: PiContentBlock[];
  details?: unknown;
  structuredContent?: unknown;
}

export interface PiRecord {
  type?: string;
  // session header
  id?: string;
  cwd?: string;
  version?: number;
  parentSession?: string;
  // message_start / message_update / message_end / turn_end
  message?: PiMessage;
  assistantMessageEvent?: PiAssistantMessageEvent;
  // agent_end (willRetry since 0.75.4) / agent_settled (since 0.80.4)
  willRetry?: boolean;
  aborted?: boolean;
  // tool_execution_*
  toolCallId?: string;
  toolName?: string;
  args?: unknown;
  partialResult?: PiToolResult;
  result?: PiToolResult;
  isError?: boolean;
  durationMs?: number;
  // auto_retry_start / auto_retry_end
  attempt?: number;
  maxAttempts?: number;
  delayMs?: number;
  errorMessage?: string;
  success?: boolean;
  finalError?: string;
  // compaction_start / compaction_end
  reason?: string;
}

export function isRecord(value: unknown): value is PiRecord {
  return isJsonObject(value);
}

/** The text of a message's or tool result's text blocks, one block per line (as pi's print mode). */
export function textOf(content: PiContentBlock[] | string | undefined): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((block): block is { type: 'text'; text: string } => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('\n');
}

export function thinkingOf(content: PiContentBlock[] | string | undefined): string[] {
  if (!Array.isArray(content)) return [];
  return content
    .filter((block): block is { type: 'thinking'; thinking: string } => block.type === 'thinking' && typeof block.thinking === 'string')
    .map((block) => block.thinking);
}
