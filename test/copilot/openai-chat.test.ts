// The shared fake chat-completions server speaks the dialect the CLIs expect.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeChat, type FakeChatServer } from '../../src/testing/openai-chat.js';

let server: FakeChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

function chunksOf(text: string): unknown[] {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice('data: '.length))
    .map((data) => (data === '[DONE]' ? data : JSON.parse(data)));
}

describe('startFakeChat', () => {
  it('streams reasoning, text, tool calls, a finish reason, usage and [DONE]', async () => {
    server = await startFakeChat([{ thinking: 'let me think', text: 'hello there', toolCalls: [{ name: 'bash', input: { command: 'ls' } }], usage: { inputTokens: 7, outputTokens: 3 } }]);
    const res = await post(server.url, { stream: true, stream_options: { include_usage: true }, messages: [] });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const chunks = chunksOf(await res.text()) as Array<Record<string, any>>;
    expect(chunks.at(-1)).toBe('[DONE]');
    const deltas = chunks.slice(0, -1).flatMap((chunk) => chunk.choices.map((choice: any) => choice.delta));
    expect(deltas.map((d) => d.reasoning_content ?? '').join('')).toBe('let me think');
    expect(deltas.map((d) => d.content ?? '').join('')).toBe('hello there');
    const args = deltas.flatMap((d) => d.tool_calls ?? []).map((call: any) => call.function.arguments).join('');
    expect(JSON.parse(args)).toEqual({ command: 'ls' });
    expect(deltas.flatMap((d) => d.tool_calls ?? [])[0]).toMatchObject({ id: 'call_1', function: { name: 'bash' } });
    expect(chunks.at(-3)).toMatchObject({ choices: [{ finish_reason: 'tool_calls' }] });
    expect(chunks.at(-2)).toMatchObject({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } });
    expect(server.modelRequests).toHaveLength(1);
  });

  it('sends no usage chunk unless asked, and answers non-streaming requests with one JSON body', async () => {
    server = await startFakeChat([{ text: 'hi' }]);
    const streamed = chunksOf(await (await post(server.url, { stream: true })).text()) as any[];
    expect(streamed.some((chunk) => chunk !== '[DONE]' && 'usage' in chunk)).toBe(false);
    const plain = (await (await post(server.url, { stream: false })).json()) as any;
    expect(plain.choices[0].message.content).toBe('hi');
  });

  it('answers error steps with status, retry-after and an OpenAI error body', async () => {
    server = await startFakeChat([{ kind: 'error', status: 429, retryAfterSeconds: 2 }, { text: 'ok' }]);
    const res = await post(server.url, { stream: true });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toMatchObject({ error: { type: 'rate_limit_error', message: 'fake error 429' } });
    expect((await post(server.url, { stream: true })).status).toBe(200);
  });

  it('cuts a stream by closing the connection, or with an SSE error object', async () => {
    server = await startFakeChat([{ text: 'one two three four', cutAfterEvents: 2 }]);
    await expect(post(server.url, { stream: true }).then((res) => res.text())).rejects.toThrow();
    await server.close();
    server = await startFakeChat([{ text: 'one two three four', cutAfterEvents: 2 }], { cutWith: 'error' });
    const chunks = chunksOf(await (await post(server.url, { stream: true })).text()) as Array<Record<string, any>>;
    expect(chunks).toHaveLength(3);
    expect(chunks[2]).toMatchObject({ error: { type: 'server_error' } });
  });

  it('hangs when told to, until closed', async () => {
    server = await startFakeChat([{ kind: 'hang', after: 'first-event' }]);
    const res = await post(server.url, { stream: true });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('chat.completion.chunk');
    const pending = reader.read();
    const outcome = await Promise.race([pending.then(() => 'data'), new Promise((r) => setTimeout(() => r('silent'), 200))]);
    expect(outcome).toBe('silent');
    await server.close();
    server = undefined;
    await pending.catch(() => undefined);
  });

  it('lists its model on GET /v1/models', async () => {
    server = await startFakeChat([{ text: 'x' }], { model: 'm1' });
    const list = (await (await fetch(`${server.url}/v1/models`)).json()) as any;
    expect(list.data[0].id).toBe('m1');
  });
});
