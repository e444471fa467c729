// What the agent is doing, on stderr while it runs: one plain line per step (CI logs), plus a
// status line rewritten in place with the elapsed time when stderr is a terminal.
import type { CoderStreamEvent, RunResult } from '../index.js';

export interface ProgressOutput {
  isTTY?: boolean;
  write(text: string): unknown;
}

const oneLine = (text: string, max = 100) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** The part of a tool's input that says what it does (a command, a path, a pattern), else its JSON. */
function toolSummary(input: unknown): string {
  if (input && typeof input === 'object') {
    const fields = input as Record<string, unknown>;
    for (const key of ['command', 'cmd', 'file_path', 'path', 'pattern', 'query', 'url', 'description']) {
      const value = fields[key];
      if (typeof value === 'string' && value !== '') return oneLine(value, 80);
      if (Array.isArray(value) && value.every((part) => typeof part === 'string')) return oneLine(value.join(' '), 80);
    }
  }
  return input === undefined ? '' : oneLine(JSON.stringify(input) ?? '', 80);
}

/** One line for an event worth showing, or undefined. `verbose` adds messages, reasoning and CLI stderr. */
export function describeEvent(event: CoderStreamEvent<string>, verbose: boolean): string | undefined {
  switch (event.type) {
    case 'init':
      return [`started ${event.provider}`, event.model && `model ${event.model}`, event.sessionId && `session ${event.sessionId}`].filter(Boolean).join(' · ');
    case 'tool_use':
      return `tool ${event.name}${toolSummary(event.input) ? `: ${toolSummary(event.input)}` : ''}`;
    case 'tool_result':
      return event.isError ? `tool ${event.name ?? event.id} failed: ${oneLine(typeof event.output === 'string' ? event.output : JSON.stringify(event.output) ?? '')}` : undefined;
    case 'progress':
      if (event.kind === 'retry') return `retry: ${oneLine(event.message ?? event.subtype ?? '')}`;
      if (event.kind === 'warning') return `warning: ${oneLine(event.message ?? event.subtype ?? '')}`;
      return verbose && event.message ? `${event.kind}: ${oneLine(event.message)}` : undefined;
    case 'error':
      return `${event.fatal ? 'error' : 'warning'} (${event.code}): ${oneLine(event.message, 300)}`;
    case 'message':
      return verbose && !event.delta ? `says: ${oneLine(event.text)}` : undefined;
    case 'reasoning':
      return verbose && !event.delta ? `thinks: ${oneLine(event.text)}` : undefined;
    case 'stderr':
      return verbose ? `stderr: ${event.line}` : undefined;
    case 'permission':
      return event.phase === 'decision' ? `${event.decision === 'allow' ? 'allowed' : 'denied'} ${event.toolName}${event.message ? `: ${oneLine(event.message)}` : ''}` : undefined;
    case 'usage':
    case 'done':
      return undefined;
  }
}

/** The last line: outcome, time, tokens, cost and the session id to resume. */
export function summaryLine(result: RunResult<unknown, string>): string {
  const seconds = `${(result.durationMs / 1000).toFixed(1)}s`;
  const { usage } = result;
  const parts = [
    `${usage.inputTokens} in / ${usage.outputTokens} out tokens`,
    usage.costUsd === undefined ? undefined : `$${usage.costUsd.toFixed(4)}`,
    result.sessionId && `session ${result.sessionId}`,
  ].filter(Boolean);
  const head = result.status === 'success' ? `done in ${seconds}` : `${result.status}${result.error ? ` (${result.error.code})` : ''} after ${seconds}`;
  const tail = result.error ? `\n${result.error.message}` : '';
  return `${[head, ...parts].join(' · ')}${tail}`;
}

export class ProgressReporter {
  private readonly started: number;
  private toolCalls = 0;
  private lastStep = 'starting';
  private ticker: NodeJS.Timeout | undefined;
  private statusShown = false;

  constructor(
    private readonly out: ProgressOutput,
    private readonly options: { label: string; verbose: boolean; clock?: () => number },
  ) {
    this.started = this.now();
    if (out.isTTY) {
      this.ticker = setInterval(() => this.drawStatus(), 1000);
      this.ticker.unref();
      this.drawStatus();
    }
  }

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }

  private elapsed(): string {
    return `${((this.now() - this.started) / 1000).toFixed(1)}s`;
  }

  private clearStatus(): void {
    if (this.statusShown) this.out.write('\r\x1b[K');
    this.statusShown = false;
  }

  private drawStatus(): void {
    this.clearStatus();
    const tools = this.toolCalls === 1 ? '1 tool call' : `${this.toolCalls} tool calls`;
    this.out.write(`${this.options.label} · ${this.elapsed()} · ${tools} · ${this.lastStep}`);
    this.statusShown = true;
  }

  /** A line that stays, prefixed with the elapsed time. */
  line(text: string): void {
    this.clearStatus();
    this.out.write(`[${this.elapsed().padStart(6)}] ${text}\n`);
    if (this.ticker) this.drawStatus();
  }

  event(event: CoderStreamEvent<string>): void {
    if (event.type === 'tool_use') {
      this.toolCalls += 1;
      this.lastStep = `tool ${event.name}`;
    } else if (event.type === 'message') {
      this.lastStep = 'writing';
    } else if (event.type === 'reasoning') {
      this.lastStep = 'thinking';
    }
    const text = describeEvent(event, this.options.verbose);
    if (text !== undefined) this.line(text);
    else if (this.ticker) this.drawStatus();
  }

  /** Stops and clears the status line (so an error message starts on a clean line). */
  stop(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
    this.clearStatus();
  }

  /** Stops the status line and prints the summary. */
  finish(summary: string): void {
    this.stop();
    this.out.write(`${summary}\n`);
  }
}
