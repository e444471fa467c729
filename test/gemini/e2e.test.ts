// The real `gemini` (0.61.0, the pinned devDependency) through the public run() / createCoder(),
// offline against the fake Gemini API of coderline/testing. Each test shares one CLI start across
// its assertions where it can: the CLI boots in about 3 s.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { geminiAdapter } from '../../src/adapters/gemini/index.js';
import { createCoder, FeatureNotSupportedError, run, tool } from '../../src/index.js';
import type { SharedStartOpts } from '../../src/options.js';
import { startFakeModel, type FakeEnvOptions, type FakeModel, type RecordedRequest, type Script } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { ofType } from '../support/events.js';
import { isGroupAlive } from '../support/processes.js';
import { waitFor } from '../support/wait.js';

interface Setup {
  fake: FakeModel;
  opts: SharedStartOpts;
  cwd: string;
}

async function setup(script: Script, env?: FakeEnvOptions): Promise<Setup> {
  const fake = await startFakeModel({ api: 'gemini', script });
  const cwd = await mkdtemp(join(tmpdir(), 'coderline-gemini-e2e-'));
  cleanupAfterTest(() => fake.close(), () => rm(cwd, { recursive: true, force: true }));
  return { fake, opts: { ...(await fake.env('gemini', env)), workingDirectory: cwd }, cwd };
}

interface GeminiBody {
  contents: Array<{ role: string; parts: Array<{ text?: string; inlineData?: { mimeType: string; data: string }; functionResponse?: { name: string; response: unknown } }> }>;
  systemInstruction?: { parts: Array<{ text?: string }> };
  tools?: Array<{ functionDeclarations?: Array<{ name: string }> }>;
}
const body = (request: RecordedRequest | undefined) => request?.body as GeminiBody;
const offered = (request: RecordedRequest | undefined) => (body(request).tools ?? []).flatMap((group) => group.functionDeclarations ?? []).map((declaration) => declaration.name);
const conversation = (request: RecordedRequest | undefined) => JSON.stringify(body(request).contents);
const shell = (command: string) => ({ toolCalls: [{ name: 'run_shell_command', input: { command, description: 'test' } }] });

describe('gemini end to end (real binary, fake Gemini API)', () => {
  it('answers from stdin with deltas, usage and a session id; every raw line reaches onRawLine', async () => {
    const { fake, opts } = await setup([{ text: 'Hello from the fake model.', usage: { inputTokens: 120, cachedInputTokens: 20, outputTokens: 9 } }]);
    const lines: string[] = [];
    const result = await run(geminiAdapter, 'Say hello, -p --yolo', { ...opts, streamPartialMessages: true, collectEvents: true, onRawLine: (line) => lines.push(line) });
    expect(result).toMatchObject({ status: 'success', text: 'Hello from the fake model.', exitCode: 0, cliVersion: '0.61.0' });
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.usage).toEqual({ inputTokens: 120, cachedInputTokens: 20, outputTokens: 9, reasoningTokens: 0 });
    const messages = ofType(result.events, 'message');
    expect(messages.filter((event) => event.delta).length).toBeGreaterThan(1);
    expect(messages.filter((event) => !event.delta).map((event) => event.text)).toEqual(['Hello from the fake model.']);
    // The prompt went on stdin, flag-like text and all; the fake key in its header.
    expect(conversation(fake.requests[0])).toContain('Say hello, -p --yolo');
    expect(fake.requests[0]?.headers['x-goog-api-key']).toBe('fake-gemini-key');
    const records = lines.filter((line) => line.trim()).map((line) => JSON.parse(line) as { type: string });
    expect(records.map((record) => record.type)).toEqual(expect.arrayContaining(['init', 'message', 'result']));
    // Only the fake server was asked anything, and only model calls of the agent loop.
    expect(fake.allRequests.every((request) => request.path.startsWith('/v1beta/models/'))).toBe(true);
  });

  it('bypass runs the shell with tool facts; the answer is the text after the last tool result; strict isolation gives it a private HOME', async () => {
    const { fake, opts, cwd } = await setup([{ text: 'I will run it.', ...shell('echo "home=$HOME"') }, { text: 'The command ran.' }], { isolation: 'strict' });
    const result = await run(geminiAdapter, 'Run it.', { ...opts, permissionPolicy: { mode: 'bypass' }, collectEvents: true });
    expect(result).toMatchObject({ status: 'success', text: 'The command ran.' });
    const use = ofType(result.events, 'tool_use')[0];
    expect(use).toMatchObject({ name: 'run_shell_command', tool: { kind: 'shell', name: 'run_shell_command', command: 'echo "home=$HOME"' } });
    const done = ofType(result.events, 'tool_result')[0];
    expect(done).toMatchObject({ id: use?.id, name: 'run_shell_command', isError: false, tool: { kind: 'shell' } });
    const home = /home=(\S+)/.exec(String(done?.output))?.[1];
    expect(home).toBeDefined();
    expect(home).not.toBe(process.env.HOME);
    expect(home?.startsWith(cwd)).toBe(false);
    expect(offered(fake.requests[0])).toContain('run_shell_command');
  });

  it('default mode offers no shell; an allow rule offers it for its prefix only; deny hides a tool', async () => {
    const { fake, opts, cwd } = await setup([shell('echo allowed-ran'), shell('touch refused.txt'), { text: 'Done.' }]);
    const result = await run(geminiAdapter, 'Run two commands.', { ...opts, permissionPolicy: { allow: ['run_shell_command(echo)'], deny: ['glob'] }, collectEvents: true });
    expect(result.status).toBe('success');
    const results = ofType(result.events, 'tool_result');
    expect(results[0]).toMatchObject({ isError: false, output: 'allowed-ran' });
    expect(results[1]).toMatchObject({ isError: true, extra: { errorType: 'policy_violation', refused: true } });
    expect(existsSync(join(cwd, 'refused.txt'))).toBe(false);
    expect(offered(fake.requests[0])).not.toContain('glob');

    const plain = await setup([shell('echo hi'), { text: 'No shell.' }]);
    const ungated = await run(geminiAdapter, 'Run it.', { ...plain.opts, collectEvents: true });
    expect(offered(plain.fake.requests[0])).not.toContain('run_shell_command');
    expect(ofType(ungated.events, 'tool_result')[0]).toMatchObject({ isError: true, extra: { errorType: 'tool_not_registered', refused: true } });
  });

  it('plan mode cannot leave itself: exit_plan_mode is not offered and writes outside the plans dir are refused', async () => {
    const target = { path: '' };
    const { fake, opts, cwd } = await setup((_request, index) => (index === 0 ? { toolCalls: [{ name: 'write_file', input: { file_path: target.path, content: 'no' } }] } : { text: 'Refused.' }));
    target.path = join(cwd, 'x.txt');
    const result = await run(geminiAdapter, 'Write x.', { ...opts, permissionPolicy: { mode: 'plan' }, collectEvents: true });
    expect(result.status).toBe('success');
    expect(offered(fake.requests[0])).not.toContain('exit_plan_mode');
    expect(ofType(result.events, 'tool_result')[0]?.isError).toBe(true);
    expect(existsSync(join(cwd, 'x.txt'))).toBe(false);
  });

  it('a gated run in a folder with its own .gemini/ fails fast, before anything starts', async () => {
    const { fake, opts, cwd } = await setup([{ text: 'never' }]);
    mkdirSync(join(cwd, '.gemini'));
    writeFileSync(join(cwd, '.gemini', 'settings.json'), JSON.stringify({ tools: { allowed: ['run_shell_command'] } }));
    await expect(run(geminiAdapter, 'Hi', { ...opts, permissionPolicy: { deny: ['glob'] } })).rejects.toBeInstanceOf(FeatureNotSupportedError);
    expect(fake.requests).toHaveLength(0);
  });

  it('resumes by id and the latest session, a caller-chosen id names a new one, and the store lists and reads them', async () => {
    const { fake, opts } = await setup([{ text: 'Noted: banana.' }, { text: 'The word was banana.' }, { text: 'Still banana.' }]);
    const id = '3f1c2b9e-8a47-4d21-9c55-2b7e6f0a1d34';
    const coder = createCoder(geminiAdapter, opts);
    cleanupAfterTest(() => coder.close());
    const first = await coder.start({ sessionId: id }).run('Remember the word banana.');
    expect(first).toMatchObject({ status: 'success', sessionId: id });
    const second = await coder.resume(id).run('What was the word?');
    expect(second).toMatchObject({ status: 'success', sessionId: id, text: 'The word was banana.' });
    expect(conversation(fake.requests[1])).toContain('Remember the word banana.');
    const latest = await coder.resumeLatest().run('Again?');
    expect(latest).toMatchObject({ status: 'success', sessionId: id });
    const sessions = await coder.listSessions();
    expect(sessions.map((session) => session.id)).toEqual([id]);
    expect(sessions[0]?.title).toBe('Remember the word banana.');
    const stored = await coder.readSession(id);
    expect(ofType(stored, 'message').map((event) => `${event.role}: ${event.text}`)).toEqual([
      'user: Remember the word banana.',
      'assistant: Noted: banana.',
      'user: What was the word?',
      'assistant: The word was banana.',
      'user: Again?',
      'assistant: Still banana.',
    ]);
    const unknown = await coder.resume('00000000-0000-4000-8000-000000000000').run('Hi');
    expect(unknown.status).toBe('error');
    expect(unknown.error?.code).toBe('session_not_found');
  });

  it('maps a 401 to auth and a hang to a stall, and leaves no process behind', async () => {
    const denied = await setup([{ kind: 'error', status: 401, message: 'API key not valid.' }]);
    const failed = await run(geminiAdapter, 'Hi', denied.opts);
    expect(failed).toMatchObject({ status: 'error', error: { code: 'auth' } });
    expect(failed.exitCode).not.toBe(0);

    const hung = await setup([{ kind: 'hang', after: 'headers' }]);
    const stalled = await run(geminiAdapter, 'Hi', { ...hung.opts, stallTimeoutMs: 2_500 });
    expect(stalled).toMatchObject({ status: 'stalled', error: { code: 'stalled' } });
    await waitFor(() => !isGroupAlive(stalled.pid!));
  });

  it('is cancelled by an AbortSignal mid-stream and leaves no process behind', async () => {
    const { fake, opts } = await setup([{ kind: 'hang', after: 'first-event' }]);
    const controller = new AbortController();
    const pending = run(geminiAdapter, 'Hi', { ...opts, signal: controller.signal });
    await waitFor(() => fake.requests.length > 0);
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ status: 'cancelled', error: { code: 'aborted' } });
    await waitFor(() => !isGroupAlive(result.pid!));
  });

  it('outputSchema is validated by the SDK; maxTurns ends the run as max_turns', async () => {
    const { opts } = await setup([{ text: '{"answer": 42}' }]);
    const result = await run(geminiAdapter, 'Answer.', { ...opts, outputSchema: z.object({ answer: z.number() }) });
    expect(result).toMatchObject({ status: 'success', output: { answer: 42 } });

    const looping = await setup([shell('echo one'), shell('echo two'), { text: 'never' }]);
    const limited = await run(geminiAdapter, 'Loop.', { ...looping.opts, permissionPolicy: { mode: 'bypass' }, maxTurns: 1 });
    expect(limited).toMatchObject({ status: 'error', error: { code: 'max_turns' } });
  });

  it('a custom tool runs on the host through the bridge; images, files and the system prompt reach the model', async () => {
    const { fake, opts, cwd } = await setup([{ toolCalls: [{ name: 'mcp_coderline_lookup', input: { key: 'k1' } }] }, { text: 'Looked it up.' }]);
    writeFileSync(join(cwd, 'pic.png'), Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'));
    writeFileSync(join(cwd, 'notes.txt'), 'the notes body');
    const calls: unknown[] = [];
    const lookup = tool({ name: 'lookup', description: 'Looks a key up', input: z.object({ key: z.string() }), handler: async (input) => { calls.push(input); return 'value-1'; } });
    const result = await run(geminiAdapter, 'Use the tool.', { ...opts, tools: [lookup], images: ['pic.png'], files: ['notes.txt'], systemPrompt: 'You are the test system prompt.', collectEvents: true });
    expect(result).toMatchObject({ status: 'success', text: 'Looked it up.' });
    expect(calls).toEqual([{ key: 'k1' }]);
    expect(ofType(result.events, 'tool_use')[0]).toMatchObject({ name: 'lookup', tool: { kind: 'mcp', server: 'coderline' } });
    const first = body(fake.requests[0]);
    expect(JSON.stringify(first.contents)).toContain('the notes body');
    expect(first.contents.flatMap((content) => content.parts).some((part) => part.inlineData?.mimeType === 'image/png')).toBe(true);
    expect(first.systemInstruction?.parts.map((part) => part.text).join('')).toContain('You are the test system prompt.');
    // The run's settings (with the bridge's secret) are gone with the run.
    expect(readFileSync(join(cwd, 'notes.txt'), 'utf8')).toBe('the notes body');
  });
});
