// Watches a run's events and remembers what decides its result.
import type { CoderStreamEvent, DoneEvent, ErrorEvent, InitEvent, Usage } from '../../events.js';
import { addUsage, emptyUsage } from '../translate/usage.js';

export class RunTracker {
  init: InitEvent<string> | undefined;
  done: DoneEvent<string> | undefined;
  /** The first fatal error: later ones are usually consequences of it. */
  fatalError: ErrorEvent<string> | undefined;
  usage: Usage = emptyUsage();
  sawUsage = false;
  private lastFullMessage: string | undefined;
  /**
   * Text deltas, kept only until the first whole message: from then on that message (or a later one)
   * is the answer, so deltas are not kept at all (with partial messages every word is a delta, and
   * a long run's deltas held its whole text: 441 MB RSS for a 1 GB stream, docs/performance.md).
   */
  private deltaText = '';

  /** With cumulative usage each usage event already holds the run's total so far: keep the last. */
  constructor(private readonly cumulativeUsage = false) {}

  observe(event: CoderStreamEvent<string>): void {
    switch (event.type) {
      case 'init':
        this.init ??= event;
        break;
      case 'done':
        this.done ??= event;
        break;
      case 'error':
        if (event.fatal) this.fatalError ??= event;
        break;
      case 'usage':
        this.usage = this.cumulativeUsage ? event.usage : addUsage(this.usage, event.usage);
        this.sawUsage = true;
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

  get sessionId(): string | undefined {
    return this.done?.sessionId ?? this.init?.sessionId;
  }
}
