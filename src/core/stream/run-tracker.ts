// Watches a run's events and remembers what decides its result.
import type { CoderStreamEvent, DoneEvent, ErrorEvent, InitEvent, PlanItem, Usage } from '../../events.js';
import { imageMediaTypeOf } from '../options/attachments.js';
import { addUsage, emptyUsage } from '../translate/usage.js';
import type { TranscriptBlock, TranscriptMessage } from '../../result.js';
import { Transcript } from './transcript.js';

/** What the turn sent: the transcript's first message. */
export interface TurnInput {
  prompt: string;
  /** Image attachments (paths as given). */
  images?: readonly string[] | undefined;
}

const redactBlock = (block: TranscriptBlock, redact: (text: string) => string): TranscriptBlock =>
  block.type === 'text' || block.type === 'reasoning' ? { ...block, text: redact(block.text) } : block;

export class RunTracker {
  init: InitEvent<string> | undefined;
  done: DoneEvent<string> | undefined;
  /** The first fatal error: later ones are usually consequences of it. */
  fatalError: ErrorEvent<string> | undefined;
  usage: Usage = emptyUsage();
  sawUsage = false;
  /** The last plan the run wrote. */
  plan: PlanItem[] | undefined;
  readonly transcript: Transcript;
  private lastFullMessage: string | undefined;
  /**
   * Text deltas, kept only until the first whole message: from then on that message (or a later one)
   * is the answer, so deltas are not kept at all (with partial messages every word is a delta, and
   * a long run's deltas held its whole text: 441 MB RSS for a 1 GB stream, docs/performance.md).
   */
  private deltaText = '';

  /** With cumulative usage each usage event already holds the run's total so far: keep the last. */
  constructor(private readonly cumulativeUsage = false, input?: TurnInput) {
    const images = (input?.images ?? []).flatMap((path) => {
      const mediaType = imageMediaTypeOf(path);
      return mediaType ? [{ path, mediaType }] : [];
    });
    this.transcript = new Transcript(input?.prompt, images);
  }

  observe(event: CoderStreamEvent<string>): void {
    this.transcript.observe(event);
    switch (event.type) {
      case 'init':
        this.init ??= event;
        break;
      case 'done':
        this.done ??= event;
        break;
      case 'compaction':
        // A compaction after the final record means the CLI went on with the turn (OpenCode
        // summarizes after a step that ended like the last one): the next final record decides.
        if (this.done?.status === 'success') this.done = undefined;
        break;
      case 'error':
        if (event.fatal) this.fatalError ??= event;
        break;
      case 'usage':
        this.usage = this.cumulativeUsage ? event.usage : addUsage(this.usage, event.usage);
        this.sawUsage = true;
        break;
      case 'plan':
        this.plan = event.items;
        break;
      case 'message':
        if (!event.delta) {
          this.lastFullMessage = event.text;
          this.deltaText = '';
        } else if (this.lastFullMessage === undefined) {
          this.deltaText = event.reset ? event.text : this.deltaText + event.text;
        }
        break;
      default:
        break;
    }
  }

  /** The final answer: the terminal record's text, else the last whole message, else the deltas. */
  get text(): string {
    return this.done?.text ?? this.lastFullMessage ?? this.deltaText;
  }

  /**
   * What the result carries of the turn's meaning: its messages, and the last plan when there was one.
   * `redact` goes over the texts (the prompt, and texts joined from deltas a secret may be split across).
   */
  conversation(redact?: (text: string) => string): { messages: TranscriptMessage[]; plan?: PlanItem[] } {
    const messages = redact ? this.transcript.messages.map((message) => ({ ...message, blocks: message.blocks.map((block) => redactBlock(block, redact)) })) : this.transcript.messages;
    return { messages, ...(this.plan ? { plan: this.plan } : {}) };
  }

  get sessionId(): string | undefined {
    return this.done?.sessionId ?? this.init?.sessionId;
  }
}
