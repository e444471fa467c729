// coderline/ai-sdk's heavy cases on every CLI (claude.e2e.test.ts has them in depth on claude): an AI
// SDK tool the agent calls through the tools bridge with canUseTool asked (a live model: most CLIs ask
// the host only in their live mode), abort mid-stream one-shot and live, resume by session id, and
// Output.object valid and invalid — real `ai`, real binaries, each against its fake model server.
import { generateText, NoObjectGeneratedError, Output, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { coderline } from '../../src/ai-sdk/index.js';
import { FeatureNotSupportedError, type ProviderName } from '../../src/index.js';
import { pidsWorkingIn } from '../support/processes.js';
import { waitFor } from '../support/wait.js';
import { callBridgedTool } from '../tools/support.js';
import { fakeFor } from './support.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const clis: ProviderName[] = ['claude', 'codex', 'copilot', 'pi', 'gemini', 'opencode'];

/** The model's requests that carry `text` (a CLI may make calls of its own, such as a title). */
const requestsWith = (requests: ReadonlyArray<{ body: unknown }>, text: string) => requests.map((request) => JSON.stringify(request.body)).filter((body) => body.includes(text));
const timesIn = (body: string, text: string) => body.split(text).length - 1;

describe.each(clis)('coderline/ai-sdk with %s: tools, abort, resume, Output.object (real binary)', (cli) => {
  it('live: an AI SDK tool given to coderline() runs in this process when the agent calls it, canUseTool asked first; its result reaches the model; no process is left', async () => {
    const { model, opts } = await fakeFor(cli, [...callBridgedTool(cli, 'lookup', { id: '42' }), { text: 'Ticket 42 is open.' }]);
    const executed: string[] = [];
    const asked: string[] = [];
    const lookup = tool({
      description: 'Looks up a ticket',
      inputSchema: z.object({ id: z.string() }),
      execute: async ({ id }) => (executed.push(id), { id, state: 'open-and-assigned' }),
    });
    const languageModel = coderline(cli, { ...opts, live: true, tools: { lookup }, canUseTool: (request) => (asked.push(request.toolName), { behavior: 'allow' }) });
    const result = await generateText({ model: languageModel, prompt: 'State of ticket 42?', tools: { lookup } });

    expect(result.text).toBe('Ticket 42 is open.');
    expect(executed).toEqual(['42']);
    expect(asked).toEqual(['lookup']);
    expect(result.toolCalls).toEqual([expect.objectContaining({ toolName: 'lookup', input: { id: '42' }, providerExecuted: true })]);
    expect(JSON.stringify(result.toolResults[0]?.output)).toContain('open-and-assigned');
    expect(requestsWith(model.requests, 'open-and-assigned').length).toBeGreaterThan(0);
    // The live session was closed with the turn.
    await waitFor(() => pidsWorkingIn(opts.workingDirectory).length === 0);
  });

  it.each([false, true])('abort mid-stream (live: %s): the stream ends in abort, not finish, and the CLI and everything it started are gone', async (live) => {
    // The reply is slow (a second per event), so the turn is surely running when the model is asked.
    const { model, opts } = await fakeFor(cli, [{ text: 'one two three four five six', delayMs: 1000 }]);
    const controller = new AbortController();
    const result = streamText({ model: coderline(cli, { ...opts, live }), prompt: 'Count slowly', abortSignal: controller.signal });
    let running = 0;
    const aborting = (async () => {
      await waitFor(() => model.requests.length > 0, 60_000);
      running = pidsWorkingIn(opts.workingDirectory).length;
      controller.abort();
    })();
    const seen: string[] = [];
    for await (const part of result.fullStream) seen.push(part.type);
    await aborting;
    expect(running).toBeGreaterThan(0);
    expect(seen).toContain('abort');
    expect(seen).not.toContain('finish');
    await waitFor(() => pidsWorkingIn(opts.workingDirectory).length === 0);
  });

  it.each([false, true])('resume by session id (live: %s): the CLI keeps the history, so the earlier message reaches the model once and the new one is sent; without it, the history is one rendered turn', async (live) => {
    const { model, opts } = await fakeFor(cli, [{ text: 'Noted: blue.' }, { text: 'You said blue.' }, { text: 'Blue, you said.' }]);
    const languageModel = coderline(cli, { ...opts, live });
    const first = await generateText({ model: languageModel, prompt: 'My colour is blue.' });
    const sessionId = first.providerMetadata?.coderline?.sessionId as string;
    const messages = [
      { role: 'user' as const, content: 'My colour is blue.' },
      { role: 'assistant' as const, content: first.text },
      { role: 'user' as const, content: 'What is my colour?' },
    ];

    const call = generateText({ model: languageModel, messages, providerOptions: { coderline: { sessionId } } });
    if (live && cli === 'gemini') {
      // Gemini 0.61.0 loses a session loaded over ACP: refused before anything is sent (one-shot resumes it).
      await expect(call).rejects.toThrow(FeatureNotSupportedError);
      expect(requestsWith(model.requests, 'What is my colour?')).toEqual([]);
      return;
    }
    const resumed = await call;
    expect(resumed.text).toBe('You said blue.');
    expect(resumed.providerMetadata?.coderline?.sessionId).toBe(sessionId);
    const asked = requestsWith(model.requests, 'What is my colour?');
    expect(asked.length).toBeGreaterThan(0);
    for (const body of asked) {
      expect(timesIn(body, 'My colour is blue.')).toBe(1);
      expect(body).not.toContain('The conversation so far');
    }
    expect(resumed.warnings).toEqual([]);

    const rendered = await generateText({ model: languageModel, messages });
    expect(rendered.providerMetadata?.coderline?.sessionId).not.toBe(sessionId);
    expect(rendered.warnings).toEqual([expect.objectContaining({ type: 'compatibility', feature: 'messages' })]);
    const once = requestsWith(model.requests, 'The conversation so far');
    expect(once.length).toBeGreaterThan(0);
    expect(once.every((body) => body.includes('Noted: blue.'))).toBe(true);
  });
});

// Claude's structured output is a tool call of its own: claude.e2e.test.ts scripts it.
describe.each(clis.filter((cli) => cli !== 'claude'))('coderline/ai-sdk with %s: Output.object (real binary)', (cli) => {
  it('the schema reaches the model; a valid answer is the output; one off the schema is NoObjectGeneratedError with the answer', async () => {
    const { model, opts } = await fakeFor(cli, [{ text: '{"city":"Lyon","population":522250}' }, { text: '{"city":"Lyon","population":"many"}' }]);
    const schema = z.object({ city: z.string(), population: z.number() });
    const languageModel = coderline(cli, opts);

    const valid = await generateText({ model: languageModel, prompt: 'The biggest city of the Rhône?', output: Output.object({ schema }) });
    expect(valid.output).toEqual({ city: 'Lyon', population: 522250 });
    expect(requestsWith(model.requests, 'population').length).toBeGreaterThan(0);

    const error = await generateText({ model: languageModel, prompt: 'Again', output: Output.object({ schema }) }).catch((caught: unknown) => caught);
    expect(NoObjectGeneratedError.isInstance(error)).toBe(true);
    expect((error as NoObjectGeneratedError).text).toBe('{"city":"Lyon","population":"many"}');
  });
});
