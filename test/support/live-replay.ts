// Replaying a live recording with coderline/replay's replayLive() (the routing and translators a live
// session uses), and reading back what each turn's result would be: shared by the pinned recordings' replay
// (test/core/live-replay.test.ts) and the compatibility sweep's (test/support/compat-replay.ts).
import type { AdapterSpec } from '../../src/core/contract/adapter.js';
import type { LiveRecording } from '../../src/replay/live-recording.js';
import { replayLive } from '../../src/replay/replay.js';
import { RunTracker } from '../../src/core/stream/run-tracker.js';
import type { CoderStreamEvent, ProviderName, TranslatedEvent } from '../../src/events.js';

/** Each turn's events, from the built-in adapter's pure face (its translation.ts, which its live spec spreads). */
export function replayTurns(adapter: AdapterSpec, recording: LiveRecording): CoderStreamEvent[][] {
  return replayLive(adapter.name as ProviderName, recording);
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
