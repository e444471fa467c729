// coderline's events as the spec's stream parts, in order: text and reasoning blocks (start, deltas,
// end), the agent's own tool calls and their results as provider-executed parts with the portable tool
// facts in provider metadata, and the agent's plans, subagents, permissions and other facts as custom
// parts. Pure bookkeeping: the caller decides what happens to each part.
import type { JSONObject, LanguageModelV4StreamPart, SharedV4ProviderMetadata } from '@ai-sdk/provider';
import type { CoderStreamEvent } from '../index.js';

/** Where the parts go (a ReadableStream's controller). */
export interface PartSink {
  enqueue(part: LanguageModelV4StreamPart): void;
}

/** One open text or reasoning block, and what its deltas said (a whole message repeats it). */
interface Block {
  id: string;
  text: string;
}

/** The part types and the state of one kind of block: text, or reasoning. */
class Lane {
  open: Block | undefined;
  /** What the last block a tool call closed said: the whole message that follows repeats it. */
  closedEarly: string | undefined;
  constructor(
    readonly start: 'text-start' | 'reasoning-start',
    readonly delta: 'text-delta' | 'reasoning-delta',
    readonly end: 'text-end' | 'reasoning-end',
    readonly prefix: string,
  ) {}
}

/** Events reported as `custom` parts (kind `coderline.<type>`): facts of the run with no standard part. */
const customEvents = new Set<CoderStreamEvent['type']>(['plan', 'subagent', 'compaction', 'permission', 'user_input']);

type Json = NonNullable<JSONObject[string]>;

/** A value of an event as JSON: the events' values come from the CLI's JSON records (no copy needed); none is `''`. */
const jsonOf = (value: unknown): Json => (value ?? '') as Json;

/** The event without its raw record and the fields every event has: what a custom part carries. */
function factsOf(event: CoderStreamEvent<string>): JSONObject {
  const { raw: _raw, provider: _provider, ts: _ts, extra: _extra, ...facts } = event;
  return facts as JSONObject;
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
  private readonly text = new Lane('text-start', 'text-delta', 'text-end', 'text-');
  private readonly reasoning = new Lane('reasoning-start', 'reasoning-delta', 'reasoning-end', 'reasoning-');
  private readonly toolNames = new Map<string, string>();
  private blocks = 0;
  private sawMetadata = false;

  constructor(
    private readonly sink: PartSink,
    private readonly options: PartWriterOptions,
  ) {}

  event(event: CoderStreamEvent<string>): void {
    const { sink } = this;
    if (this.options.raw) sink.enqueue({ type: 'raw', rawValue: event.raw });
    switch (event.type) {
      case 'init':
        if (this.sawMetadata) return;
        this.sawMetadata = true;
        sink.enqueue({ type: 'response-metadata', ...(event.sessionId ? { id: event.sessionId } : {}), ...(event.model ? { modelId: event.model } : {}), timestamp: new Date(event.ts) });
        return;
      case 'message':
        if (event.role === 'assistant' && !this.options.jsonAnswer) this.textLike(this.text, event.text, event.delta, event.reset === true);
        return;
      case 'reasoning':
        this.textLike(this.reasoning, event.text, event.delta, false);
        return;
      case 'tool_use':
        this.closeBlocks();
        this.toolNames.set(event.id, event.name);
        sink.enqueue({
          type: 'tool-call',
          toolCallId: event.id,
          toolName: event.name,
          input: JSON.stringify(event.input ?? {}),
          providerExecuted: true,
          dynamic: !this.options.declaredTools.has(event.name),
          ...toolMetadata(event),
        });
        return;
      case 'tool_result': {
        this.closeBlocks();
        const name = event.name ?? this.toolNames.get(event.id) ?? 'unknown';
        sink.enqueue({
          type: 'tool-result',
          toolCallId: event.id,
          toolName: name,
          result: jsonOf(event.output),
          isError: event.isError,
          dynamic: !this.options.declaredTools.has(name),
          ...toolMetadata(event),
        });
        return;
      }
      case 'error':
        // Fatal errors decide the run's outcome (the finish); others are reported as they come.
        if (!event.fatal) sink.enqueue({ type: 'custom', kind: 'coderline.error', providerMetadata: { coderline: factsOf(event) } });
        return;
      default:
        if (customEvents.has(event.type)) sink.enqueue({ type: 'custom', kind: `coderline.${event.type}`, providerMetadata: { coderline: factsOf(event) } });
    }
  }

  /** Closes what is open; `answer` is a JSON response format's answer, sent as the one text block. */
  end(answer?: string): void {
    this.closeBlocks();
    if (answer !== undefined) this.wholeBlock(this.text, answer);
  }

  private textLike(lane: Lane, text: string, delta: boolean, reset: boolean): void {
    if (delta) {
      if (reset) this.close(lane, false);
      const block = lane.open ?? this.open(lane);
      block.text += text;
      if (text) this.sink.enqueue({ type: lane.delta, id: block.id, delta: text });
      return;
    }
    const { open } = lane;
    if (open) {
      // A whole message after deltas says what the deltas said: only what they missed goes out.
      if (text.startsWith(open.text)) {
        const rest = text.slice(open.text.length);
        if (rest) this.sink.enqueue({ type: lane.delta, id: open.id, delta: rest });
        this.close(lane, false);
        return;
      }
      this.close(lane, false);
    } else if (lane.closedEarly !== undefined && text === lane.closedEarly) {
      lane.closedEarly = undefined;
      return;
    }
    this.wholeBlock(lane, text);
  }

  private wholeBlock(lane: Lane, text: string): void {
    const id = lane.prefix + ++this.blocks;
    this.sink.enqueue({ type: lane.start, id });
    if (text) this.sink.enqueue({ type: lane.delta, id, delta: text });
    this.sink.enqueue({ type: lane.end, id });
    lane.closedEarly = undefined;
  }

  private open(lane: Lane): Block {
    const block = { id: lane.prefix + ++this.blocks, text: '' };
    lane.open = block;
    this.sink.enqueue({ type: lane.start, id: block.id });
    return block;
  }

  /** `early`: a tool call closes it, and the whole message that may follow repeats its text. */
  private close(lane: Lane, early: boolean): void {
    const block = lane.open;
    if (!block) return;
    this.sink.enqueue({ type: lane.end, id: block.id });
    lane.open = undefined;
    lane.closedEarly = early ? block.text : undefined;
  }

  private closeBlocks(): void {
    this.close(this.reasoning, true);
    this.close(this.text, true);
  }
}

function toolMetadata(event: { tool?: unknown; parentToolUseId?: string; extra?: Readonly<Record<string, unknown>> }): { providerMetadata?: SharedV4ProviderMetadata } {
  if (!event.tool && !event.parentToolUseId && typeof event.extra?.cliToolName !== 'string') return {};
  const facts: JSONObject = {};
  if (event.tool) facts.tool = jsonOf(event.tool);
  if (event.parentToolUseId) facts.parentToolUseId = event.parentToolUseId;
  if (typeof event.extra?.cliToolName === 'string') facts.cliToolName = event.extra.cliToolName;
  return { providerMetadata: { coderline: facts } };
}
