// Replaying a live recording (src/core/live/live-recording.ts) the way a live session translates it, and
// reading back what each turn's result would be: shared by the pinned recordings' replay
// (test/core/live-replay.test.ts) and the compatibility sweep's (test/support/compat-replay.ts).
import type { AdapterSpec } from '../../src/core/contract/adapter.js';
import { replayLive, type LiveRecording } from '../../src/core/live/live-recording.js';
import { RunTracker } from '../../src/core/stream/run-tracker.js';
import type { CoderStreamEvent, TranslatedEvent } from '../../src/events.js';

/** Each turn's events. A protocol whose translator spans the session (createSessionTranslator) keeps one for the whole replay. */
export function replayTurns(adapter: AdapterSpec, recording: LiveRecording): TranslatedEvent[][] {
  const spec = adapter.live!;
  const shared = spec.createSessionTranslator?.({ opts: {} });
  return replayLive(spec, () => shared ?? (spec.createTranslator ?? adapter.createTranslator)({ opts: {} }), adapter.name, recording);
}

/** What a turn's events add up to: its status and text, as its RunResult has them. */
export function trackerOf(adapter: AdapterSpec, events: TranslatedEvent[]): RunTracker {
  const tracker = new RunTracker(adapter.usageIsCumulative);
  for (const event of events) tracker.observe({ ...event, provider: adapter.name, ts: 0 } as CoderStreamEvent<string>);
  return tracker;
}

/** The questions the CLI asked that the adapter reads as permission requests. */
export function permissionQuestions(adapter: AdapterSpec, recording: LiveRecording): Array<{ id: unknown; toolName: string | undefined }> {
  const { dialect, permission } = adapter.live!;
  return recording.lines
    .filter((line) => line.dir === 'cli')
    .flatMap((line) => {
      let message: unknown;
      try {
        message = JSON.parse(line.line);
      } catch {
        return [];
      }
      const question = dialect.incoming(message);
      return question ? [{ id: question.id, toolName: permission.request(question.body)?.toolName }] : [];
    });
}
