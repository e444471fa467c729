// coderline's events as the spec's stream parts, in order: text and reasoning blocks (start, deltas,
// end), the agent's own tool calls and their results as provider-executed parts with the portable tool
// facts in provider metadata, and the agent's plans, subagents, permissions and other facts as custom
// parts. Pure bookkeeping: the caller decides what happens to each part.
import type { JSONObject, LanguageModelV4StreamPart, SharedV4ProviderMetadata } from '@ai-sdk/provider';
import type { CoderStreamEvent } from '../index.js';

type Emit = (part: LanguageModelV4StreamPart) => void;

/** One open text or reasoning block, and what its deltas said (a whole message repeats it). */
interface Block {
  id: string;
  text: string;
}

/** Events reported as `custom` parts (kind `coderline.<type>`): facts of the run with no standard part. */
const customEvents = new Set<CoderStreamEvent['type']>(['plan', 'subagent', 'compaction', 'permission', 'user_input']);

/** A value as JSON (tool inputs and outputs are the CLI's: anything JSON.stringify can say). */
function jsonOf(value: unknown): NonNullable<JSONObject[string]> {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.parse(JSON.stringify(value)) as NonNullable<JSONObject[string]>;
  } catch {
    return String(value);
  }
}

/** The event without its raw record and the fields every event has: what a custom part carries. */
function factsOf(event: CoderStreamEvent<string>): JSONObject {
  const { raw: _raw, provider: _provider, ts: _ts, extra: _extra, ...facts } = event;
  return jsonOf(facts) as JSONObject;
}

export interface PartWriterOptions {
  /** Tool names given to the call as well: their calls are typed ones, the others dynamic. */
  declaredTools: ReadonlySet<string>;
  /** Text goes out as one JSON answer at the end (a JSON response format): messages are not text. */
  jsonAnswer: boolean;
  /** A `raw` part with each event's raw record (includeRawChunks). */
  raw: boolean;
}

export class PartWriter {
  private text: Block | undefined;
  private reasoning: Block | undefined;
  /** What the last block closed early by a tool call said: the whole message that follows repeats it. */
  private closedText: string | undefined;
  private closedReasoning: string | undefined;
  private readonly toolNames = new Map<string, string>();
  private blocks = 0;
  private sawMetadata = false;

  constructor(
    private readonly emit: Emit,
    private readonly options: PartWriterOptions,
  ) {}

  event(event: CoderStreamEvent<string>): void {
    if (this.options.raw) this.emit({ type: 'raw', rawValue: event.raw });
    switch (event.type) {
      case 'init':
        if (this.sawMetadata) return;
        this.sawMetadata = true;
        this.emit({ type: 'response-metadata', ...(event.sessionId ? { id: event.sessionId } : {}), ...(event.model ? { modelId: event.model } : {}), timestamp: new Date(event.ts) });
        return;
      case 'message':
        if (event.role === 'assistant' && !this.options.jsonAnswer) this.textLike('text', event.text, event.delta, event.reset === true);
        return;
      case 'reasoning':
        this.textLike('reasoning', event.text, event.delta, false);
        return;
      case 'tool_use':
        this.closeBlocks();
        this.toolNames.set(event.id, event.name);
        this.emit({
          type: 'tool-call',
          toolCallId: event.id,
          toolName: event.name,
          input: JSON.stringify(event.input ?? {}),
          providerExecuted: true,
          dynamic: !this.options.declaredTools.has(event.name),
          ...this.toolMetadata(event),
        });
        return;
      case 'tool_result': {
        this.closeBlocks();
        const name = event.name ?? this.toolNames.get(event.id) ?? 'unknown';
        this.emit({
          type: 'tool-result',
          toolCallId: event.id,
          toolName: name,
          result: jsonOf(event.output),
          isError: event.isError,
          dynamic: !this.options.declaredTools.has(name),
          ...this.toolMetadata(event),
        });
        return;
      }
      case 'error':
        // Fatal errors decide the run's outcome (the finish); others are reported as they come.
        if (!event.fatal) this.emit({ type: 'custom', kind: 'coderline.error', providerMetadata: { coderline: factsOf(event) } });
        return;
      default:
        if (customEvents.has(event.type)) this.emit({ type: 'custom', kind: `coderline.${event.type}`, providerMetadata: { coderline: factsOf(event) } });
    }
  }

  /** Closes what is open; `answer` is a JSON response format's answer, sent as the one text block. */
  end(answer?: string): void {
    this.closeBlocks();
    if (answer !== undefined) this.wholeBlock('text', answer);
  }

  private toolMetadata(event: { tool?: unknown; parentToolUseId?: string; extra?: Readonly<Record<string, unknown>> }): { providerMetadata?: SharedV4ProviderMetadata } {
    const facts: JSONObject = {};
    if (event.tool) facts.tool = jsonOf(event.tool);
    if (event.parentToolUseId) facts.parentToolUseId = event.parentToolUseId;
    if (typeof event.extra?.cliToolName === 'string') facts.cliToolName = event.extra.cliToolName;
    return Object.keys(facts).length ? { providerMetadata: { coderline: facts } } : {};
  }

  private textLike(kind: 'text' | 'reasoning', text: string, delta: boolean, reset: boolean): void {
    const open = kind === 'text' ? this.text : this.reasoning;
    if (delta) {
      if (reset && open) this.close(kind);
      const block = (kind === 'text' ? this.text : this.reasoning) ?? this.open(kind);
      block.text += text;
      if (text) this.emit({ type: `${kind}-delta`, id: block.id, delta: text });
      return;
    }
    // A whole message after deltas says what the deltas said: only what they missed goes out.
    if (open) {
      if (text.startsWith(open.text)) {
        const rest = text.slice(open.text.length);
        if (rest) this.emit({ type: `${kind}-delta`, id: open.id, delta: rest });
        this.close(kind);
        this.forgetClosed(kind);
        return;
      }
      this.close(kind);
    } else if (text === (kind === 'text' ? this.closedText : this.closedReasoning)) {
      this.forgetClosed(kind);
      return;
    }
    this.wholeBlock(kind, text);
  }

  private wholeBlock(kind: 'text' | 'reasoning', text: string): void {
    const block = this.open(kind);
    if (text) this.emit({ type: `${kind}-delta`, id: block.id, delta: text });
    this.close(kind);
    this.forgetClosed(kind);
  }

  private open(kind: 'text' | 'reasoning'): Block {
    const block = { id: `${kind}-${++this.blocks}`, text: '' };
    if (kind === 'text') this.text = block;
    else this.reasoning = block;
    this.emit({ type: `${kind}-start`, id: block.id });
    return block;
  }

  private close(kind: 'text' | 'reasoning'): void {
    const block = kind === 'text' ? this.text : this.reasoning;
    if (!block) return;
    this.emit({ type: `${kind}-end`, id: block.id });
    if (kind === 'text') [this.text, this.closedText] = [undefined, block.text];
    else [this.reasoning, this.closedReasoning] = [undefined, block.text];
  }

  private forgetClosed(kind: 'text' | 'reasoning'): void {
    if (kind === 'text') this.closedText = undefined;
    else this.closedReasoning = undefined;
  }

  private closeBlocks(): void {
    this.close('reasoning');
    this.close('text');
  }
}
