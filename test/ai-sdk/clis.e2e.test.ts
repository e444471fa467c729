// coderline/ai-sdk on every CLI (real binaries, each against its fake model server): generateText and
// streamText on one model, so one coder serves both calls. The heavy cases are matrix.e2e.test.ts's
// (every CLI) and claude.e2e.test.ts's (in depth).
import { generateText, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { coderline } from '../../src/ai-sdk/index.js';
import type { ProviderName } from '../../src/index.js';
import { fakeFor, partOrder } from './support.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const clis: ProviderName[] = ['claude', 'codex', 'copilot', 'pi', 'gemini', 'opencode'];

describe.each(clis)('coderline/ai-sdk with %s (real binary)', (cli) => {
  it('generateText answers with the session facts; streamText streams a text block and finishes', async () => {
    const { opts } = await fakeFor(cli, [{ text: `Hello from ${cli}.` }, { text: 'A streamed answer.' }]);
    const model = coderline(cli, opts);
    expect(model.provider).toBe(`coderline.${cli}`);

    const generated = await generateText({ model, prompt: 'Say hello' });
    expect(generated.text).toBe(`Hello from ${cli}.`);
    expect(generated.finishReason).toBe('stop');
    expect(generated.providerMetadata?.coderline).toMatchObject({ status: 'success', sessionId: expect.any(String), cliVersion: expect.any(String) });

    const streamed = streamText({ model, prompt: 'Stream something' });
    const parts = [];
    for await (const part of streamed.fullStream) parts.push(part);
    expect(partOrder(parts)).toEqual(['start', 'start-step', 'text-start', 'text-delta', 'text-end', 'finish-step', 'finish']);
    expect(await streamed.text).toBe('A streamed answer.');
    expect(await streamed.finishReason).toBe('stop');
  });
});
