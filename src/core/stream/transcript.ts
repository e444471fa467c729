// A turn's events → its messages (RunResult.messages), the same way for every CLI. Whole messages
// win over the deltas they repeat (a CLI that streams sends both); deltas with no whole message are
// kept as the text they add up to. An assistant message is what the model said between two tool
// results (CLIs cut one answer into records of their own: Claude a record per block, Codex an item per
// reasoning or text), a subagent's events never join the parent's messages, and a usage event read
// from the same record as the open assistant message is its usage.
import type { CoderStreamEvent, MessageEvent, ReasoningEvent } from '../../events.js';
import type { TranscriptBlock, TranscriptMessage } from '../../result.js';

type Draft = { kind: 'text' | 'reasoning'; text: string };

export class Transcript {
  readonly messages: TranscriptMessage[] = [];
  /** Deltas of the open assistant message not yet covered by a whole block. */
  private draft: Draft | undefined;
  /** The records the open assistant message was read from (for its usage). */
  private readonly records = new Set<unknown>();

  constructor(prompt?: string, images: readonly { path: string; mediaType: string }[] = []) {
    if (prompt === undefined) return;
    const blocks: TranscriptBlock[] = [{ type: 'text', text: prompt }, ...images.map((image) => ({ type: 'image' as const, mediaType: image.mediaType, path: image.path }))];
    this.messages.push({ role: 'user', blocks });
  }

  observe(event: CoderStreamEvent<string>): void {
    switch (event.type) {
      case 'message':
        if (event.role === 'assistant') this.content(event, 'text');
        break;
      case 'reasoning':
        this.content(event, 'reasoning');
        break;
      case 'tool_use':
        this.assistant(event).blocks.push({ type: 'tool_use', id: event.id, name: event.name, input: event.input, ...(event.tool ? { tool: event.tool } : {}) });
        this.records.add(event.raw);
        break;
      case 'tool_result': {
        this.closeDraft();
        const message = this.open('tool', event.parentToolUseId);
        message.blocks.push({ type: 'tool_result', id: event.id, ...(event.name === undefined ? {} : { name: event.name }), output: event.output, isError: event.isError });
        break;
      }
      case 'usage': {
        const last = this.messages.at(-1);
        if (last?.role === 'assistant' && last.usage === undefined && this.records.has(event.raw)) last.usage = { ...event.usage };
        break;
      }
      case 'user_message':
        // A message pushed into the running turn (steer), where the CLI took it.
        this.closeDraft();
        this.messages.push({ role: 'user', blocks: [{ type: 'text', text: event.text }] });
        break;
      case 'done':
        this.closeDraft();
        break;
      default:
        break;
    }
  }

  private content(event: MessageEvent<string> | ReasoningEvent<string>, kind: Draft['kind']): void {
    const message = this.assistant(event);
    this.records.add(event.raw);
    if (event.delta) {
      if (this.draft?.kind !== kind || (event.type === 'message' && event.reset)) {
        this.closeDraft();
        this.draft = { kind, text: '' };
      }
      this.draft.text += event.text;
      return;
    }
    // A whole block repeats the deltas before it.
    if (this.draft?.kind === kind) this.draft = undefined;
    else this.closeDraft();
    message.blocks.push({ type: kind, text: event.text });
  }

  /** The open assistant message of this event's agent (the main one, or a subagent). */
  private assistant(event: CoderStreamEvent<string>): TranscriptMessage {
    const last = this.messages.at(-1);
    if (last?.role === 'assistant' && last.parentToolUseId === event.parentToolUseId) return last;
    this.closeDraft();
    this.records.clear();
    return this.open('assistant', event.parentToolUseId);
  }

  /** The last message when it has this role and agent, else a new one. */
  private open(role: TranscriptMessage['role'], parentToolUseId: string | undefined): TranscriptMessage {
    const last = this.messages.at(-1);
    if (last?.role === role && last.parentToolUseId === parentToolUseId) return last;
    const message: TranscriptMessage = { role, blocks: [] };
    if (parentToolUseId !== undefined) message.parentToolUseId = parentToolUseId;
    this.messages.push(message);
    return message;
  }

  /** Deltas never followed by their whole block are the text they add up to. */
  private closeDraft(): void {
    const draft = this.draft;
    this.draft = undefined;
    if (!draft || draft.text === '') return;
    const last = this.messages.findLast((message) => message.role === 'assistant');
    last?.blocks.push({ type: draft.kind, text: draft.text });
  }
}
