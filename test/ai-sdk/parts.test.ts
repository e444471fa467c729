// coderline/ai-sdk without a CLI: events → stream parts, the prompt as one turn, the call options a CLI
// ignores, how a run's result finishes, and the calls refused before anything starts.
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { jsonSchema, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { coderline } from '../../src/ai-sdk/index.js';
import { planCall } from '../../src/ai-sdk/call-options.js';
import { endingOf } from '../../src/ai-sdk/finish.js';
import { placeSystem, renderPrompt } from '../../src/ai-sdk/prompt.js';
import { PartWriter } from '../../src/ai-sdk/stream-parts.js';
import { bridgedTools } from '../../src/ai-sdk/tools.js';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { copilotAdapter } from '../../src/adapters/copilot/index.js';
import { CoderError, FeatureNotSupportedError, InvalidOptionsError, OutputValidationError, type CoderStreamEvent, type RunResult } from '../../src/index.js';

type Event = CoderStreamEvent<string>;
const base = { provider: 'claude', ts: 0, raw: {} } as const;
const text = (value: string, delta: boolean, extra: Partial<Event> = {}): Event => ({ ...base, type: 'message', role: 'assistant', text: value, delta, ...extra }) as Event;

function partsOf(events: Event[], options: Partial<ConstructorParameters<typeof PartWriter>[1]> = {}, answer?: string): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [];
  const writer = new PartWriter({ enqueue: (part) => parts.push(part) }, { declaredTools: new Set(), jsonAnswer: false, raw: false, ...options });
  for (const event of events) writer.event(event);
  writer.end(answer);
  return parts;
}

describe('events as stream parts', () => {
  it('deltas and the whole message that repeats them are one text block; only what the deltas missed is added', () => {
    expect(partsOf([text('Hel', true), text('lo', true), text('Hello!', false)])).toEqual([
      { type: 'text-start', id: 'text-1' },
      { type: 'text-delta', id: 'text-1', delta: 'Hel' },
      { type: 'text-delta', id: 'text-1', delta: 'lo' },
      { type: 'text-delta', id: 'text-1', delta: '!' },
      { type: 'text-end', id: 'text-1' },
    ]);
  });

  it('a whole message after a tool call closed its deltas is not sent again; a different one is a block of its own', () => {
    const use: Event = { ...base, type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } };
    const parts = partsOf([text('Looking', true), use, text('Looking', false), text('Done', false)]);
    expect(parts.map((part) => part.type)).toEqual(['text-start', 'text-delta', 'text-end', 'tool-call', 'text-start', 'text-delta', 'text-end']);
    expect(parts.at(-2)).toMatchObject({ delta: 'Done' });
  });

  it('a retry that discards the streamed text starts a new block', () => {
    const parts = partsOf([text('Wrong', true), text('Right', true, { reset: true } as Partial<Event>)]);
    expect(parts.map((part) => part.type)).toEqual(['text-start', 'text-delta', 'text-end', 'text-start', 'text-delta', 'text-end']);
  });

  it("the agent's tool calls are provider-executed, dynamic unless the call declared the tool, with the tool facts and the parent in metadata", () => {
    const facts = { kind: 'shell' as const, name: 'Bash', command: 'ls' };
    const parts = partsOf(
      [
        { ...base, type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' }, tool: facts, parentToolUseId: 'task-1' },
        { ...base, type: 'tool_result', id: 't1', output: 'a\nb', isError: false },
        { ...base, type: 'tool_use', id: 't2', name: 'lookup', input: { id: '1' } },
        { ...base, type: 'tool_result', id: 't2', name: 'lookup', output: { state: 'open' }, isError: true },
      ],
      { declaredTools: new Set(['lookup']) },
    );
    expect(parts).toEqual([
      { type: 'tool-call', toolCallId: 't1', toolName: 'Bash', input: '{"command":"ls"}', providerExecuted: true, dynamic: true, providerMetadata: { coderline: { tool: facts, parentToolUseId: 'task-1' } } },
      { type: 'tool-result', toolCallId: 't1', toolName: 'Bash', result: 'a\nb', isError: false, dynamic: true },
      { type: 'tool-call', toolCallId: 't2', toolName: 'lookup', input: '{"id":"1"}', providerExecuted: true, dynamic: false },
      { type: 'tool-result', toolCallId: 't2', toolName: 'lookup', result: { state: 'open' }, isError: true, dynamic: false },
    ]);
  });

  it('plans, subagents, permissions and non-fatal errors are custom parts; a JSON answer replaces the messages as the one text', () => {
    const parts = partsOf(
      [
        text('Let me think', false),
        { ...base, type: 'plan', items: [{ content: 'read', status: 'pending' }] },
        { ...base, type: 'error', code: 'server', message: 'overloaded, retrying', fatal: false },
      ],
      { jsonAnswer: true },
      '{"a":1}',
    );
    expect(parts).toEqual([
      { type: 'custom', kind: 'coderline.plan', providerMetadata: { coderline: { type: 'plan', items: [{ content: 'read', status: 'pending' }] } } },
      { type: 'custom', kind: 'coderline.error', providerMetadata: { coderline: { type: 'error', code: 'server', message: 'overloaded, retrying', fatal: false } } },
      { type: 'text-start', id: 'text-1' },
      { type: 'text-delta', id: 'text-1', delta: '{"a":1}' },
      { type: 'text-end', id: 'text-1' },
    ]);
  });
});

describe('the prompt as one turn', () => {
  const conversation: LanguageModelV4CallOptions['prompt'] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'text', text: 'My colour is blue.' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Noted.' }, { type: 'tool-call', toolCallId: 'c', toolName: 'note', input: { colour: 'blue' } }] },
    { role: 'user', content: [{ type: 'text', text: 'What is it?' }, { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'AAAA' } }] },
  ];

  it('a new session gets the history as a transcript, then the new message; system messages apart; files of the new message to attach', () => {
    const rendered = renderPrompt(conversation, false);
    expect(rendered.system).toBe('Be brief.');
    expect(rendered.text).toBe('The conversation so far, oldest first:\n<user>\nMy colour is blue.\n</user>\n<assistant>\nNoted.\n[called tool note with {"colour":"blue"}]\n</assistant>\n\nThe user now says:\nWhat is it?');
    expect(rendered.files).toEqual([conversation[3]!.content[1]]);
    expect(rendered.warnings).toEqual([expect.objectContaining({ type: 'compatibility', feature: 'messages' })]);
  });

  it('a resumed session gets only what follows the last assistant message', () => {
    const rendered = renderPrompt(conversation, true);
    expect(rendered.text).toBe('What is it?');
    expect(rendered.warnings).toEqual([]);
  });

  it("system messages follow the model's appendSystemPrompt where the CLI takes one, else open the prompt with a warning", () => {
    const rendered = renderPrompt(conversation, true);
    expect(placeSystem(claudeAdapter, rendered, 'House rules.')).toEqual({ text: 'What is it?', appendSystemPrompt: 'House rules.\n\nBe brief.', warnings: [] });
    expect(placeSystem(copilotAdapter, rendered, undefined)).toEqual({
      text: '<system>\nBe brief.\n</system>\n\nWhat is it?',
      warnings: [expect.objectContaining({ type: 'compatibility', feature: 'system messages' })],
    });
  });

  it('a prompt whose last message is the assistant\'s has no turn to run', () => {
    expect(() => renderPrompt(conversation.slice(0, 3), false)).toThrow(InvalidOptionsError);
  });
});

describe('call options', () => {
  const call = (options: Partial<LanguageModelV4CallOptions>): LanguageModelV4CallOptions => ({ prompt: [], ...options });

  it('each sampling setting, stop sequences, a header of the caller and a forced tool choice is an unsupported warning', () => {
    const plan = planCall(claudeAdapter, call({ temperature: 0, seed: 1, stopSequences: ['x'], headers: { 'user-agent': 'ai/7', 'x-trace': '1' }, toolChoice: { type: 'required' } }));
    expect(plan.warnings.map((warning) => warning.type === 'unsupported' && warning.feature)).toEqual(['temperature', 'seed', 'stopSequences', 'headers', 'toolChoice']);
  });

  it('reasoning goes to reasoningEffort where the CLI has it; a schema to outputSchema, with a compatibility warning where it is prompt-based', () => {
    const schema = { type: 'object', properties: { a: { type: 'number' } } } as const;
    expect(planCall(claudeAdapter, call({ reasoning: 'high', responseFormat: { type: 'json', schema } }))).toMatchObject({ reasoningEffort: 'high', outputSchema: schema, warnings: [] });
    expect(planCall(copilotAdapter, call({ responseFormat: { type: 'json', schema } })).warnings).toEqual([expect.objectContaining({ type: 'compatibility', feature: 'responseFormat' })]);
  });
});

describe('how a run finishes', () => {
  const result = (status: RunResult['status'], error?: CoderError): RunResult<unknown, string> =>
    ({ provider: 'claude', status, text: '', output: undefined, sessionId: undefined, usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 }, exitCode: 0, signal: undefined, durationMs: 1, error, pid: 1, cliVersion: '1' });

  it('success is stop; a limit is length; an answer off the schema finishes for the AI SDK to check; any other failure is the error', () => {
    expect(endingOf(result('success'), undefined)).toEqual({ kind: 'finished', finishReason: { unified: 'stop', raw: 'success' } });
    expect(endingOf(result('error', new CoderError('max_turns', 'x')), undefined)).toEqual({ kind: 'finished', finishReason: { unified: 'length', raw: 'max_turns' } });
    expect(endingOf(result('error', new OutputValidationError('claude', 'prose', ['not JSON'])), undefined)).toEqual({ kind: 'finished', finishReason: { unified: 'error', raw: 'invalid_output' } });
    const auth = new CoderError('auth', 'bad key');
    expect(endingOf(result('error', auth), undefined)).toEqual({ kind: 'failed', error: auth });
  });

  it("an aborted run fails with the signal's reason", () => {
    const controller = new AbortController();
    controller.abort();
    expect(endingOf(result('cancelled', new CoderError('aborted', 'x')), controller.signal)).toEqual({ kind: 'failed', error: controller.signal.reason });
  });
});

describe('AI SDK tools as coderline tools', () => {
  it("a jsonSchema() input keeps its JSON Schema and its validator; a streaming execute answers with its last value", async () => {
    const previews = tool({
      description: 'Counts up',
      inputSchema: jsonSchema<{ to: number }>(
        { type: 'object', properties: { to: { type: 'number' } }, required: ['to'] },
        { validate: (value) => (typeof (value as { to?: unknown }).to === 'number' ? { success: true, value: value as { to: number } } : { success: false, error: new Error('to must be a number') }) },
      ),
      async *execute({ to }) {
        for (let n = 1; n <= to; n += 1) yield { counted: n };
      },
    });
    const [bridged] = bridgedTools({ previews });
    expect(bridged).toMatchObject({ name: 'previews', description: 'Counts up', inputJsonSchema: { type: 'object', required: ['to'] } });
    expect(await bridged!.input['~standard'].validate({ to: 'x' })).toEqual({ issues: [{ message: 'to must be a number' }] });
    expect(await bridged!.handler({ to: 3 }, { signal: new AbortController().signal, elicit: async () => ({ action: 'cancel' }) })).toEqual({ json: { counted: 3 } });
  });
});

describe('calls refused before anything starts', () => {
  // No such executable: a call that got as far as spawning would fail with binary_not_found instead.
  const model = coderline('claude', { executablePath: '/nonexistent/claude' });
  const user: LanguageModelV4CallOptions['prompt'] = [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }];

  it("another CLI's option is a compile error on the key, and refused when the model is made", () => {
    // @ts-expect-error codexSandbox is codex's own option
    expect(() => coderline('claude', { codexSandbox: 'read-only' })).toThrow(FeatureNotSupportedError);
  });

  it('canUseTool on a one-shot model of a CLI that asks the host only live names the setting that fixes it; live must be a boolean', () => {
    const canUseTool = () => ({ behavior: 'allow' as const });
    expect(() => coderline('codex', { executablePath: '/nonexistent/codex', canUseTool })).toThrow(/set live: true on the model/);
    expect(() => coderline('codex', { executablePath: '/nonexistent/codex', canUseTool, live: true })).not.toThrow();
    // Claude asks one-shot runs too (its permission prompt tool).
    expect(() => coderline('claude', { executablePath: '/nonexistent/claude', canUseTool })).not.toThrow();
    // @ts-expect-error live is a boolean
    expect(() => coderline('claude', { live: 'yes' })).toThrow(InvalidOptionsError);
  });

  it('an unknown providerOptions.coderline key, or a session id that could be a flag', async () => {
    await expect(model.doGenerate({ prompt: user, providerOptions: { coderline: { sessionid: 'x' } } })).rejects.toThrow(/providerOptions.coderline.sessionid is not an option/);
    await expect(model.doGenerate({ prompt: user, providerOptions: { coderline: { sessionId: '--dangerously-skip-permissions' } } })).rejects.toThrow(InvalidOptionsError);
  });

  it('a file of a type no CLI takes, a tool without execute, a call-time tool the agent cannot run', async () => {
    const file: LanguageModelV4CallOptions['prompt'] = [{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'file', mediaType: 'audio/wav', data: { type: 'data', data: 'AAAA' } }] }];
    await expect(model.doGenerate({ prompt: file })).rejects.toThrow(FeatureNotSupportedError);
    expect(() => coderline('claude', { tools: { lookup: { inputSchema: { jsonSchema: { type: 'object' } } } } })).toThrow(/has no execute/);
    await expect(model.doGenerate({ prompt: user, tools: [{ type: 'function', name: 'lookup', inputSchema: { type: 'object' } }] })).rejects.toThrow(FeatureNotSupportedError);
  });
});
