// Progress on stderr: plain lines for logs, a status line rewritten in place on a terminal.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CoderStreamEvent } from '../../src/index.js';
import { describeEvent, ProgressReporter } from '../../src/cli/progress.js';

const base = { provider: 'claude', ts: 0, raw: null } as const;
const toolUse: CoderStreamEvent = { ...base, type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'npm   test\n -- --run' } };
const retry: CoderStreamEvent = { ...base, type: 'progress', kind: 'retry', subtype: 'system/api_retry', message: 'HTTP 529, attempt 2' };
const message: CoderStreamEvent = { ...base, type: 'message', role: 'assistant', text: 'Looking at it.', delta: false };

function capture(isTTY: boolean) {
  let now = 1_000;
  let written = '';
  const reporter = new ProgressReporter({ isTTY, write: (text: string) => (written += text) }, { label: 'claude', verbose: false, clock: () => now });
  return { reporter, output: () => written, advance: (ms: number) => (now += ms) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('progress lines', () => {
  it('say what the agent does: tool calls with their command, retries, warnings and errors', () => {
    expect(describeEvent(toolUse, false)).toBe('tool Bash: npm test -- --run');
    expect(describeEvent(retry, false)).toBe('retry: HTTP 529, attempt 2');
    expect(describeEvent({ ...base, type: 'error', code: 'rate_limit', fatal: true, message: 'slow down' }, false)).toBe('error (rate_limit): slow down');
    expect(describeEvent({ ...base, type: 'tool_result', id: 't1', name: 'Bash', output: 'exit 1: boom', isError: true }, false)).toBe('tool Bash failed: exit 1: boom');
  });

  it('leave messages, reasoning and stderr to --verbose', () => {
    expect(describeEvent(message, false)).toBeUndefined();
    expect(describeEvent(message, true)).toBe('says: Looking at it.');
    expect(describeEvent({ ...base, type: 'stderr', line: 'debug' }, false)).toBeUndefined();
    expect(describeEvent({ ...base, type: 'stderr', line: 'debug' }, true)).toBe('stderr: debug');
  });

  it('without a terminal: one plain line per step with the elapsed time, no escape codes', () => {
    const { reporter, output, advance } = capture(false);
    advance(1_500);
    reporter.event(toolUse);
    reporter.event(message);
    advance(10_000);
    reporter.event(retry);
    reporter.finish('done in 11.5s');
    expect(output()).toBe('[  1.5s] tool Bash: npm test -- --run\n[ 11.5s] retry: HTTP 529, attempt 2\ndone in 11.5s\n');
  });

  it('on a terminal: a status line with time, tool count and step, redrawn each second and cleared at the end', () => {
    vi.useFakeTimers();
    const { reporter, output, advance } = capture(true);
    reporter.event(toolUse);
    advance(2_000);
    vi.advanceTimersByTime(2_000);
    expect(output()).toContain('\r\x1b[K[  0.0s] tool Bash: npm test -- --run\n');
    expect(output().endsWith('claude · 2.0s · 1 tool call · tool Bash')).toBe(true);
    reporter.finish('done in 2.0s');
    expect(output().endsWith('\r\x1b[Kdone in 2.0s\n')).toBe(true);
  });
});
