// The fake Gemini API on its own, as a client sees it over HTTP: what `gemini` reads of it is proven
// by test/gemini/e2e.test.ts against the real binary.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModel, type ScriptStep } from '../../src/testing/index.js';

let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function start(script: ScriptStep[]): Promise<FakeModel> {
  model = await startFakeModel({ api: 'gemini', script });
  return model;
}

const stream = (fake: FakeModel, body: unknown = { contents: [] }) =>
  fetch(`${fake.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`, { method: 'POST', body: JSON.stringify(body) });
const chunksOf = async (response: Response) =>
  (await response.text()).split('\n\n').filter((block) => block.startsWith('data: ')).map((block) => JSON.parse(block.slice(6)) as { candidates: Array<{ content: { parts: Array<Record<string, unknown>> }; finishReason?: string }>; usageMetadata?: Record<string, number> });

describe('fake Gemini API', () => {
  it('streams thoughts, text in deltas and function calls; only the last chunk has the finish reason and usage', async () => {
    const fake = await start([{ thinking: 'Hmm.', text: 'Two words', toolCalls: [{ name: 'run_shell_command', input: { command: 'ls' } }], usage: { inputTokens: 7, outputTokens: 3, reasoningTokens: 2 } }]);
    const response = await stream(fake);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const chunks = await chunksOf(response);
    const parts = chunks.flatMap((chunk) => chunk.candidates[0]!.content.parts);
    expect(parts[0]).toEqual({ text: 'Hmm.', thought: true });
    expect(parts.filter((part) => typeof part.text === 'string' && !part.thought).map((part) => part.text).join('')).toBe('Two words');
    expect(parts.find((part) => part.functionCall)).toMatchObject({ functionCall: { name: 'run_shell_command', args: { command: 'ls' } } });
    expect(chunks.map((chunk) => chunk.candidates[0]!.finishReason ?? null)).toEqual([...chunks.slice(1).map(() => null), 'STOP']);
    expect(chunks.at(-1)!.usageMetadata).toEqual({ promptTokenCount: 7, candidatesTokenCount: 3, thoughtsTokenCount: 2, cachedContentTokenCount: 0, totalTokenCount: 12 });
    expect(fake.requests).toHaveLength(1);
  });

  it('errors are google.rpc bodies with the HTTP status', async () => {
    const fake = await start([{ kind: 'error', status: 429, message: 'slow down' }]);
    const response = await stream(fake);
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({ error: { code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED' } });
  });

  it('side calls take no script step: JSON that fits a requested schema, else a text; countTokens answers', async () => {
    const fake = await start([{ text: 'the turn' }]);
    const side = await fetch(`${fake.url}/v1beta/models/flash-lite:generateContent`, {
      method: 'POST',
      body: JSON.stringify({ generationConfig: { responseJsonSchema: { type: 'object', properties: { complexity_reasoning: { type: 'string' }, complexity_score: { type: 'integer' } } } } }),
    });
    const answer = (await side.json()) as { candidates: Array<{ content: { parts: Array<{ text: string }> } }> };
    expect(JSON.parse(answer.candidates[0]!.content.parts[0]!.text)).toEqual({ complexity_reasoning: 'fake', complexity_score: 1 });
    const count = await fetch(`${fake.url}/v1beta/models/gemini-2.5-flash:countTokens`, { method: 'POST', body: '{}' });
    expect(await count.json()).toEqual({ totalTokens: 10 });
    expect(fake.requests).toHaveLength(0);
    const parts = (await chunksOf(await stream(fake))).flatMap((chunk) => chunk.candidates[0]!.content.parts);
    expect(parts.map((part) => part.text).join('')).toBe('the turn');
  });

  it('env() refuses what Gemini has no setting for, and another CLI', async () => {
    const fake = await start([{ text: 'x' }]);
    await expect(fake.env('gemini', { requestTimeoutMs: 5 })).rejects.toThrow(/gemini has no setting for requestTimeoutMs/);
    await expect(fake.env('claude')).rejects.toThrow(/claude speaks anthropic/);
    const opts = await fake.env('gemini', { retries: 2 });
    expect(opts.extraEnv).toMatchObject({ GOOGLE_GEMINI_BASE_URL: fake.url, GEMINI_API_KEY: 'fake-gemini-key' });
    expect(opts.geminiSettings).toEqual({ general: { maxAttempts: 3 } });
  });
});
