// Session history on the real binaries against the fake model servers: sessions the CLIs stored are
// listed (per working directory, or all) and read back as events; and a session resumed by a coder
// in a fresh process (nothing in memory) still reports this run's usage, not the session's total.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCoder, FeatureNotSupportedError, type AdapterSpec, type ProviderName, type SharedStartOpts } from '../../src/index.js';
import { builtInAdapters } from '../../src/registry.js';
import { fakeApiOf, startFakeModel } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';
import { startScript } from '../cli/command.js';

const clis: ProviderName[] = ['claude', 'codex', 'copilot', 'pi', 'gemini', 'opencode'];

async function workspace(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'coderline-history-ws-'));
  cleanupAfterTest(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe.each(clis)('%s session history (real binary, fake model)', (cli) => {
  const adapter = builtInAdapters[cli] as AdapterSpec;
  const probe = adapter.probe!;
  const shell = probe.shellCall('echo stored-history');

  it('lists the sessions of the working directory (all with allDirectories), reads one back, and a fresh process resuming it reports per-run usage', async () => {
    const fake = await startFakeModel({
      api: fakeApiOf[cli],
      script: [
        { toolCalls: [shell], usage: { inputTokens: 50, outputTokens: 5 } },
        { text: 'Noted banana.', usage: { inputTokens: 100, outputTokens: 10 } },
        { text: 'Other answer.', usage: { inputTokens: 30, outputTokens: 3 } },
        { text: 'Elsewhere answer.', usage: { inputTokens: 40, outputTokens: 4 } },
        { text: 'The word was banana.', usage: { inputTokens: 200, outputTokens: 20 } },
      ],
    });
    cleanupAfterTest(() => fake.close());
    const [here, elsewhere] = [await workspace(), await workspace()];
    const base: SharedStartOpts = withPinnedRuntime(cli, { ...(await fake.env(cli)), ...probe.toolOpts });
    const coder = createCoder(adapter, { ...base, workingDirectory: here });
    const other = createCoder(adapter, { ...base, workingDirectory: elsewhere });
    cleanupAfterTest(() => coder.close(), () => other.close());

    const first = await coder.start().run('Remember banana.');
    const second = await coder.start().run('Another session.');
    const third = await other.start().run('A session elsewhere.');
    for (const result of [first, second, third]) expect(result.status, result.error?.message).toBe('success');
    expect(first.usage).toMatchObject({ inputTokens: 150, outputTokens: 15 });

    const listed = await coder.listSessions();
    expect(listed.map((info) => info.id).sort()).toEqual([first.sessionId, second.sessionId].sort());
    const firstInfo = listed.find((info) => info.id === first.sessionId);
    expect(firstInfo).toMatchObject({ title: 'Remember banana.', workingDirectory: here });
    expect(Number.isNaN(Date.parse(firstInfo!.updatedAt))).toBe(false);
    const all = await coder.listSessions({ allDirectories: true });
    expect(all.map((info) => info.id).sort()).toEqual([first.sessionId, second.sessionId, third.sessionId].sort());
    expect(all.find((info) => info.id === third.sessionId)).toMatchObject({ title: 'A session elsewhere.', workingDirectory: elsewhere });

    const events = await coder.readSession(first.sessionId!);
    expect(events.every((event) => event.provider === cli)).toBe(true);
    const conversation = events.filter((event) => event.type === 'message' || event.type === 'tool_use' || event.type === 'tool_result');
    expect(conversation.map((event) => (event.type === 'message' ? `${event.role}: ${event.text}` : event.type))).toEqual([
      'user: Remember banana.',
      'tool_use',
      'tool_result',
      'assistant: Noted banana.',
    ]);
    const toolUse = conversation.find((event) => event.type === 'tool_use');
    // The stored call has the portable facts a live one has; its result, joined by id, too.
    const facts = { kind: 'shell', name: shell.name, command: 'echo stored-history' };
    expect(toolUse).toMatchObject({ name: shell.name, tool: facts });
    const toolResult = conversation.find((event) => event.type === 'tool_result');
    expect(toolResult).toMatchObject({ tool: facts });
    expect(JSON.stringify(toolResult)).toContain('stored-history');
    await expect(coder.readSession('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'session_not_found', message: expect.stringMatching(/no stored session/) });

    // A process that never ran the session: nothing in memory, the store must tell the total so far.
    const host = join(import.meta.dirname, '..', 'support', 'host-resume.ts');
    const resumed = await startScript(host, [cli, first.sessionId!, 'Which word?'], { env: { ...process.env, CODERLINE_TEST_OPTIONS: JSON.stringify({ ...base, workingDirectory: here }) } }).done;
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ status: 'success', text: 'The word was banana.', usage: { inputTokens: 200, outputTokens: 20 } });
  });
});

describe('session history without a store', () => {
  it('fails with FeatureNotSupportedError naming the method', async () => {
    const { sessionStore: _dropped, ...storeless } = builtInAdapters.codex;
    const coder = createCoder({ ...storeless, name: 'storeless' } as AdapterSpec<'storeless'>, {});
    cleanupAfterTest(() => coder.close());
    await expect(coder.listSessions()).rejects.toThrow(FeatureNotSupportedError);
    await expect(coder.readSession('x')).rejects.toThrow(/readSession/);
  });
});
