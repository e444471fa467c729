// RunResult.messages from the recorded stdout of the real binaries (claude 2.1.332, codex 0.171.0,
// copilot 1.0.102, pi 1.6.0), each where the fake model ran one shell command and then answered:
// the same four messages on every CLI, however the CLI cut them into records.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunTracker } from '../../src/core/stream/run-tracker.js';
import type { ProviderName } from '../../src/events.js';
import { replay } from '../../src/replay/replay.js';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures');

function transcriptOf(cli: ProviderName, path: string, secret?: string) {
  const file = join(fixtures, cli, path);
  const metaFile = file.replace(/\.jsonl$/, '.meta.json');
  // pi's recordings have no options beside them.
  const meta = existsSync(metaFile) ? (JSON.parse(readFileSync(metaFile, 'utf8')) as { opts?: object }) : {};
  const tracker = new RunTracker(false, { prompt: 'Run it.', images: ['shot.png', 'notes.txt'] });
  for (const event of replay(cli, readFileSync(file, 'utf8').split('\n'), { opts: meta.opts ?? {} })) tracker.observe(event);
  return tracker.conversation(secret === undefined ? undefined : (text) => text.replaceAll(secret, '[REDACTED]'));
}

const shellRuns: Record<Exclude<ProviderName, 'gemini' | 'opencode'>, { path: string; name: string; answer: string }> = {
  claude: { path: '2.1.332/tool_bash.jsonl', name: 'Bash', answer: 'The command printed coderline-tool-ran.' },
  codex: { path: '0.171.0/shell-workspace-write.jsonl', name: 'command_execution', answer: 'Ran it.' },
  copilot: { path: '1.0.102/bash-tool.jsonl', name: 'bash', answer: 'The command printed hi.' },
  pi: { path: '1.6.0/tool-bash.jsonl', name: 'bash', answer: 'The command printed hello-from-bash.' },
};

describe.each(Object.keys(shellRuns) as (keyof typeof shellRuns)[])('%s', (cli) => {
  it('the prompt with its image, the tool call, its result, the answer', () => {
    const { path, name, answer } = shellRuns[cli];
    const { messages, plan } = transcriptOf(cli, path);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    // A file that is not an image is not an image block.
    expect(messages[0]!.blocks).toEqual([{ type: 'text', text: 'Run it.' }, { type: 'image', mediaType: 'image/png', path: 'shot.png' }]);
    const call = messages[1]!.blocks.find((block) => block.type === 'tool_use');
    expect(call).toMatchObject({ name });
    expect(messages[2]!.blocks).toEqual([expect.objectContaining({ type: 'tool_result', id: (call as { id: string }).id, isError: false })]);
    expect(messages[3]!.blocks.filter((block) => block.type === 'text')).toEqual([{ type: 'text', text: answer }]);
    expect(plan).toBeUndefined();
  });
});

describe('the parts the CLIs differ in', () => {
  it('claude with partial messages: the deltas are not kept beside the whole text', () => {
    const { messages } = transcriptOf('claude', '2.1.332/partial.jsonl');
    expect(messages.slice(1)).toEqual([{ role: 'assistant', blocks: [{ type: 'reasoning', text: 'Short thought.' }, { type: 'text', text: 'Streaming words one by one.' }] }]);
  });

  it('claude: a retry that cut the first attempt keeps only the second', () => {
    const { messages } = transcriptOf('claude', '2.1.332/partial_cut_retry.jsonl');
    expect(messages.slice(1)).toEqual([{ role: 'assistant', blocks: [{ type: 'text', text: 'Second attempt.' }] }]);
  });

  it('codex: the reasoning item and the message item of one answer are one message', () => {
    const { messages } = transcriptOf('codex', '0.171.0/reasoning.jsonl');
    expect(messages.slice(1)).toEqual([{ role: 'assistant', blocks: [{ type: 'reasoning', text: 'The user wants a greeting, so I greet.' }, { type: 'text', text: 'Hi!' }] }]);
  });

  it('pi: each message carries the usage of its model call', () => {
    const { messages } = transcriptOf('pi', '1.6.0/tool-bash.jsonl');
    expect(messages[3]!.usage).toMatchObject({ inputTokens: expect.any(Number), outputTokens: expect.any(Number) });
  });

  it('claude: a subagent’s messages stay apart from the parent’s, marked with the Agent call', () => {
    const { messages } = transcriptOf('claude', '2.1.332/subagent.jsonl');
    expect(messages.map((message) => [message.role, message.parentToolUseId])).toEqual([
      ['user', undefined],
      ['assistant', undefined],
      ['assistant', 'toolu_fake_1_0'],
      ['tool', 'toolu_fake_1_0'],
      ['tool', undefined],
      ['assistant', undefined],
    ]);
  });

  it('the result holds the last plan, and the redaction goes over the texts', () => {
    const { plan, messages } = transcriptOf('claude', '2.1.332/plan_todo.jsonl', 'Run');
    expect(plan).toEqual([{ content: 'Write the tests', status: 'completed' }, { content: 'Fix the bug', status: 'in_progress' }]);
    expect(messages[0]!.blocks[0]).toEqual({ type: 'text', text: '[REDACTED] it.' });
  });
});
