// onUserInput with the real `codex` (0.171.0) against the fake Responses server: a custom tool's
// elicitation answered on the host in a one-shot run, and what the model reads of Codex's own ask tool.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { run, tool, type UserInputRequest } from '../../src/index.js';
import type { RecordedRequest } from '../../src/testing/index.js';
import { fakeForLive, openLive } from '../support/live.js';
import { ofType } from '../support/events.js';
import { codexBridgeNamespace, codexToolSearch } from '../tools/support.js';

/** What the CLI sent back to the model for a tool call. */
const outputOf = (request: RecordedRequest | undefined, callId: string) =>
  JSON.stringify((request?.body as { input: Array<{ type?: string; call_id?: string; output?: unknown }> }).input.find((item) => item.type === 'function_call_output' && item.call_id === callId)?.output ?? null);

describe('codex onUserInput (real binary, fake Responses server)', () => {
  it('one-shot: a custom tool elicits; onUserInput answers on the host and the handler\'s result reaches the model', async () => {
    const schema = { type: 'object', properties: { approve: { type: 'boolean' } }, required: ['approve'] };
    const release = tool({
      name: 'release',
      description: 'Releases after asking',
      input: z.object({}),
      handler: async (_input, ctx) => {
        const answer = await ctx.elicit({ message: 'Release now?', schema });
        return answer.action === 'accept' && answer.content.approve === true ? 'released' : `not released (${answer.action})`;
      },
    });
    // Codex finds a bridge tool by searching first.
    const { model, opts } = await fakeForLive('codex', [
      { toolCalls: [codexToolSearch('release')] },
      { toolCalls: [{ name: 'release', namespace: codexBridgeNamespace, input: {}, id: 'call_release' }] },
      { text: 'Released.' },
    ]);
    const asked: UserInputRequest[] = [];
    const result = await run(codexAdapter, 'Release.', { ...opts, tools: [release], collectEvents: true, onUserInput: (request) => (asked.push(request), { answers: { content: { approve: true } } }) });
    expect(result.status).toBe('success');
    expect(asked).toEqual([{ source: 'elicitation', server: 'coderline', questions: [{ id: 'content', text: 'Release now?', schema }] }]);
    expect(outputOf(model.requests[2], 'call_release')).toContain('released');
    expect(ofType(result.events, 'user_input').map((event) => event.phase)).toEqual(['request', 'answer']);
  });

  it('live: Codex\'s own request_user_input is refused by Codex outside its Plan mode, with onUserInput set; the callback is not asked', async () => {
    const input = { questions: [{ id: 'color', header: 'Color', question: 'Which color?', options: [{ label: 'red', description: 'warm' }, { label: 'blue', description: 'cool' }] }] };
    const { model, opts } = await fakeForLive('codex', [{ toolCalls: [{ name: 'request_user_input', input, id: 'call_ask_1' }] }, { text: 'Fine.' }]);
    const asked: UserInputRequest[] = [];
    const live = await openLive(codexAdapter, { ...opts, onUserInput: (request) => (asked.push(request), { decline: true }) });
    expect((await live.send('Ask me.').result).status).toBe('success');
    expect(outputOf(model.requests[1], 'call_ask_1')).toContain('request_user_input is unavailable in Default mode');
    expect(asked).toEqual([]);
  });
});
