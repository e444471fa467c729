// coderline/ai-sdk with the real `ai` package and the real claude (2.1.332) against the fake Anthropic
// server: the heavy cases run on one CLI (test/ai-sdk/clis.e2e.test.ts runs a small matrix on all).
import { generateText, Output, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { coderline } from '../../src/ai-sdk/index.js';
import { CoderError, FeatureNotSupportedError } from '../../src/index.js';
import { pngBase64 } from '../attachments/fixtures.js';
import { pidsWorkingIn } from '../support/processes.js';
import { waitFor } from '../support/wait.js';
import { fakeFor, partOrder } from './support.js';

interface AnthropicBody {
  system?: Array<{ text: string }> | string;
  messages: Array<{ role: string; content: string | Array<{ type: string; text?: string; content?: unknown }> }>;
}
const bodyOf = (request: { body: unknown } | undefined) => request?.body as AnthropicBody;

// The AI SDK logs each warning to the console; these tests read them from the result instead.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

describe('coderline/ai-sdk with claude (real binary, real ai package)', () => {
  it('generateText: the answer, usage, finish reason, session facts, a warning per ignored setting; system messages and images reach the model', async () => {
    const { model, opts } = await fakeFor('claude', [{ text: 'A red dot.', usage: { inputTokens: 40, cachedInputTokens: 30, outputTokens: 7 } }]);
    const result = await generateText({
      model: coderline('claude', opts),
      system: 'You describe images tersely.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is in the picture?' }, { type: 'file', mediaType: 'image/png', data: pngBase64 }] }],
      temperature: 0.2,
      topP: 0.9,
      maxOutputTokens: 100,
    });

    expect(result.text).toBe('A red dot.');
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toMatchObject({ inputTokens: 70, inputTokenDetails: { cacheReadTokens: 30, noCacheTokens: 40 }, outputTokens: 7 });
    expect(result.providerMetadata?.coderline).toMatchObject({ sessionId: expect.any(String), cliVersion: '2.1.332', costUsd: expect.any(Number) });
    expect(result.warnings?.map((warning) => 'feature' in warning && warning.feature).sort()).toEqual(['maxOutputTokens', 'temperature', 'topP']);
    const sent = bodyOf(model.requests.at(-1));
    expect(JSON.stringify(sent.system)).toContain('You describe images tersely.');
    const user = sent.messages.find((message) => message.role === 'user');
    expect(JSON.stringify(user?.content)).toContain(pngBase64);
    expect(JSON.stringify(user?.content)).toContain('What is in the picture?');
  });

  it('streamText: reasoning, text, the agent\'s own tool call and its result as provider-executed parts, then the answer, in order', async () => {
    const { opts } = await fakeFor('claude', [
      { thinking: 'I should look.', text: 'Let me check.', toolCalls: [{ name: 'Bash', input: { command: 'echo hi' } }] },
      { text: 'It printed hi.' },
    ]);
    const result = streamText({ model: coderline('claude', { ...opts, allowedTools: ['Bash'] }), prompt: 'Run echo hi' });
    const parts = [];
    for await (const part of result.fullStream) parts.push(part);

    expect(partOrder(parts)).toEqual([
      'start', 'start-step',
      'reasoning-start', 'reasoning-delta', 'reasoning-end',
      'text-start', 'text-delta', 'text-end',
      'tool-call', 'tool-result',
      'text-start', 'text-delta', 'text-end',
      'finish-step', 'finish',
    ]);
    const call = parts.find((part) => part.type === 'tool-call');
    const output = parts.find((part) => part.type === 'tool-result');
    expect(call).toMatchObject({ toolName: 'Bash', input: { command: 'echo hi' }, providerExecuted: true, dynamic: true });
    // The portable tool facts ride along: what the call does, the same on every CLI.
    expect(call?.providerMetadata?.coderline).toMatchObject({ tool: { kind: 'shell', command: 'echo hi' } });
    expect(output).toMatchObject({ toolCallId: call?.toolCallId, output: expect.stringContaining('hi'), providerExecuted: true });
    expect(await result.text).toBe('Let me check.It printed hi.');
    expect(await result.reasoningText).toBe('I should look.');
    expect((await result.providerMetadata)?.coderline).toMatchObject({ sessionId: expect.any(String), status: 'success' });
  });

  it('Output.object: the schema goes to claude\'s native structured output and the output is validated; a structured output claude gives up on is a CoderError invalid_output', async () => {
    const { model, opts } = await fakeFor('claude', [
      { toolCalls: [{ name: 'StructuredOutput', input: { city: 'Lyon', population: 522250 } }] },
      { text: 'Submitted.' },
      { toolCalls: [{ name: 'StructuredOutput', input: { city: 'Lyon', population: 'many' } }] },
      { text: 'Submitted.' },
    ]);
    const schema = z.object({ city: z.string(), population: z.number() });
    const languageModel = coderline('claude', opts);

    const valid = await generateText({ model: languageModel, prompt: 'The biggest city of the Rhône?', output: Output.object({ schema }) });
    expect(valid.output).toEqual({ city: 'Lyon', population: 522250 });
    expect(valid.finishReason).toBe('stop');
    // The CLI was given the schema (its StructuredOutput tool takes it as its input schema).
    const offered = (model.requests[0]?.body as { tools: Array<{ name: string; input_schema: unknown }> }).tools.find((offer) => offer.name === 'StructuredOutput');
    expect(offered?.input_schema).toMatchObject({ properties: { city: { type: 'string' }, population: { type: 'number' } } });

    // Claude checks the tool's input against the schema itself and, its retries spent, gives up: no
    // answer to hand over, so the call fails with the CLI's reason.
    const invalid = await generateText({ model: languageModel, prompt: 'Again', output: Output.object({ schema }) }).catch((caught: unknown) => caught);
    expect(invalid).toBeInstanceOf(CoderError);
    expect(invalid).toMatchObject({ code: 'invalid_output', provider: 'claude' });
  });

  it('an AI SDK tool given to coderline() runs in this process when the agent calls it (canUseTool asked first); one given only to the call is refused before anything starts', async () => {
    const { model, opts } = await fakeFor('claude', [{ toolCalls: [{ name: 'mcp__coderline__lookup', input: { id: '42' } }] }, { text: 'Ticket 42 is open.' }]);
    const executed: unknown[] = [];
    const asked: string[] = [];
    const lookup = tool({
      description: 'Looks up a ticket',
      inputSchema: z.object({ id: z.string() }),
      execute: async ({ id }) => {
        executed.push(id);
        return { id, state: 'open' };
      },
    });
    const languageModel = coderline('claude', { ...opts, tools: { lookup }, canUseTool: (request) => (asked.push(request.toolName), { behavior: 'allow' }) });
    const result = await generateText({ model: languageModel, prompt: 'State of ticket 42?', tools: { lookup } });

    expect(result.text).toBe('Ticket 42 is open.');
    expect(executed).toEqual(['42']);
    expect(asked).toEqual(['lookup']);
    // Given to the call as well, the call is a typed one (not dynamic), executed by the agent's side.
    expect(result.toolCalls).toEqual([expect.objectContaining({ toolName: 'lookup', input: { id: '42' }, providerExecuted: true })]);
    expect(result.toolCalls[0]?.dynamic).toBeFalsy();
    expect(JSON.stringify(result.toolResults[0]?.output)).toContain('open');
    expect(JSON.stringify(bodyOf(model.requests[1]).messages.at(-1))).toContain('\\"state\\":\\"open\\"');

    const before = model.requests.length;
    const other = tool({ description: 'Not given to coderline()', inputSchema: z.object({}), execute: () => 'x' });
    await expect(generateText({ model: languageModel, prompt: 'Use other', tools: { other } })).rejects.toThrow(FeatureNotSupportedError);
    expect(model.requests.length).toBe(before);
  });

  it('abort mid-stream: the stream stops, the CLI and everything it started are gone; an aborted generateText rejects with the reason', async () => {
    const { opts } = await fakeFor('claude', [{ text: 'one two three four five six seven eight nine ten eleven twelve', delayMs: 400 }]);
    const controller = new AbortController();
    const result = streamText({ model: coderline('claude', opts), prompt: 'Count slowly', abortSignal: controller.signal });
    const seen: string[] = [];
    let running = 0;
    for await (const part of result.fullStream) {
      seen.push(part.type);
      if (part.type === 'text-delta' && !controller.signal.aborted) {
        running = pidsWorkingIn(opts.workingDirectory).length;
        controller.abort();
      }
    }
    expect(running).toBeGreaterThan(0);
    expect(seen).toContain('abort');
    expect(seen).not.toContain('finish');
    await waitFor(() => pidsWorkingIn(opts.workingDirectory).length === 0);

    // generateText: the same abort rejects the call with the signal's reason.
    const again = new AbortController();
    let runningThen = 0;
    const model = coderline('claude', {
      ...opts,
      onEvent: (event) => {
        if (event.type !== 'init' || again.signal.aborted) return;
        runningThen = pidsWorkingIn(opts.workingDirectory).length;
        again.abort();
      },
    });
    const rejected = await generateText({ model, prompt: 'Count slowly', abortSignal: again.signal }).catch((caught: unknown) => caught);
    expect(runningThen).toBeGreaterThan(0);
    expect(rejected).toMatchObject({ name: 'AbortError' });
    await waitFor(() => pidsWorkingIn(opts.workingDirectory).length === 0);
  });
});
