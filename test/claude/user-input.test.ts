// onUserInput with the real `claude` (2.1.332) against the fake Anthropic server: a scripted
// AskUserQuestion answered, declined and left unanswered (live, over the control protocol), answered on
// a one-shot run (through the bridge's permission prompt tool), and a custom tool that elicits.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { run, tool, type CoderStreamEvent, type OnUserInput, type UserInputRequest } from '../../src/index.js';
import type { FakeModel, Script } from '../../src/testing/index.js';
import { fakeForLive, openLive } from '../support/live.js';
import { ofType } from '../support/events.js';

const QUESTION = 'Which color should the button be?';
const askCall = {
  toolCalls: [{
    name: 'AskUserQuestion',
    id: 'toolu_ask_1',
    input: { questions: [{ question: QUESTION, header: 'Color', options: [{ label: 'red', description: 'warm' }, { label: 'blue', description: 'cool' }], multiSelect: false }] },
  }],
};
const askScript: Script = [askCall, { text: 'Going with it.' }];

/** What the CLI sent back to the model as the ask tool's result. */
function askResult(model: FakeModel): { content: string; is_error?: boolean } | undefined {
  const messages = (model.requests[1]?.body as { messages: Array<{ content: unknown }> }).messages;
  const blocks = messages.flatMap((message) => (Array.isArray(message.content) ? message.content : [])) as Array<{ type: string; tool_use_id?: string; content: unknown; is_error?: boolean }>;
  const block = blocks.find((candidate) => candidate.type === 'tool_result' && candidate.tool_use_id === 'toolu_ask_1');
  return block && { content: typeof block.content === 'string' ? block.content : JSON.stringify(block.content), ...(block.is_error ? { is_error: true } : {}) };
}

const expectedRequest: UserInputRequest = { source: 'tool', toolUseId: 'toolu_ask_1', questions: [{ id: QUESTION, text: QUESTION, options: ['red', 'blue'] }] };

async function liveTurn(onUserInput: OnUserInput, extra: { userInputTimeoutMs?: number } = {}) {
  const { model, opts } = await fakeForLive('claude', askScript);
  const live = await openLive(claudeAdapter, { ...opts, onUserInput, ...extra });
  const result = await live.send('Ask me about the button.', { collectEvents: true }).result;
  return { model, result, events: (result.events ?? []) as CoderStreamEvent<string>[] };
}

describe('claude onUserInput (real binary, fake Anthropic server)', () => {
  it('live: AskUserQuestion reaches the callback; its answer is what the model reads next; user_input events for both', async () => {
    const asked: UserInputRequest[] = [];
    const { model, result, events } = await liveTurn((request) => (asked.push(request), { answers: { [QUESTION]: 'blue' } }));
    expect(result).toMatchObject({ status: 'success', text: 'Going with it.' });
    expect(asked).toEqual([expectedRequest]);
    expect(askResult(model)?.content).toContain(`"${QUESTION}"="blue"`);
    expect(askResult(model)?.is_error).toBeUndefined();
    expect(ofType(events, 'user_input')).toMatchObject([
      { phase: 'request', source: 'tool', toolUseId: 'toolu_ask_1', questions: expectedRequest.questions },
      { phase: 'answer', answers: { [QUESTION]: 'blue' } },
    ]);
    // The ask is not a permission question: no permission events for it.
    expect(ofType(events, 'permission')).toEqual([]);
  });

  it('live: a decline is what the model reads, as an error of the tool', async () => {
    const { model, result, events } = await liveTurn(() => ({ decline: true }));
    expect(result.status).toBe('success');
    expect(askResult(model)).toMatchObject({ content: expect.stringContaining('The user declined to answer.'), is_error: true });
    expect(ofType(events, 'user_input').at(-1)).toMatchObject({ phase: 'answer', decline: true });
  });

  it('live: a callback that does not answer in time is withdrawn; the model reads that nobody answered; the turn goes on', async () => {
    let withdrawn = false;
    const { model, result, events } = await liveTurn(
      (_request, { signal }) => new Promise(() => signal.addEventListener('abort', () => (withdrawn = true))),
      { userInputTimeoutMs: 300 },
    );
    expect(result).toMatchObject({ status: 'success', text: 'Going with it.' });
    expect(withdrawn).toBe(true);
    expect(askResult(model)).toMatchObject({ content: expect.stringContaining('Nobody answered the question'), is_error: true });
    expect(ofType(events, 'error')).toMatchObject([{ fatal: false, message: expect.stringContaining('did not answer within 300 ms') }]);
    const answer = ofType(events, 'user_input').at(-1);
    expect(answer).toMatchObject({ phase: 'answer' });
    expect(answer).not.toHaveProperty('answers');
    expect(answer).not.toHaveProperty('decline');
  });

  it('the permission mode: plan still puts the question to the callback; dontAsk refuses it unasked', async () => {
    const asked: string[] = [];
    for (const permissionMode of ['plan', 'dontAsk'] as const) {
      const { model, opts } = await fakeForLive('claude', askScript);
      const live = await openLive(claudeAdapter, { ...opts, permissionMode, onUserInput: () => (asked.push(permissionMode), { answers: { [QUESTION]: 'red' } }) });
      await live.send('Ask me.').result;
      if (permissionMode === 'plan') expect(askResult(model)?.content).toContain(`"${QUESTION}"="red"`);
      else expect(askResult(model)).toMatchObject({ content: expect.stringContaining("denied because Claude Code is running in don't ask mode"), is_error: true });
    }
    expect(asked).toEqual(['plan']);
  });

  it('one-shot: AskUserQuestion comes through the permission prompt tool; a multiSelect answer reaches the model joined', async () => {
    const { model, opts } = await fakeForLive('claude', askScript);
    const result = await run(claudeAdapter, 'Ask me.', { ...opts, onUserInput: () => ({ answers: { [QUESTION]: ['red', 'blue'] } }), collectEvents: true });
    expect(result.status).toBe('success');
    expect(askResult(model)?.content).toContain(`"${QUESTION}"="red, blue"`);
    expect(ofType(result.events, 'user_input').map((event) => event.phase)).toEqual(['request', 'answer']);
  });

  it('an mcpServers server that elicits: the host\'s MCP client answers through onUserInput; without it the server gets no elicitation capability', async () => {
    const program = fileURLToPath(new URL('../fixtures/mcp-elicit-server.mjs', import.meta.url));
    const script: Script = [{ toolCalls: [{ name: 'mcp__asker__ask_marker', input: {} }] }, { text: 'Asked.' }];
    const askOnce = async (onUserInput?: OnUserInput) => {
      const { model, opts, workDir } = await fakeForLive('claude', script);
      const markerFile = join(workDir, 'marker.jsonl');
      const mcpServers = { asker: { command: process.execPath, args: [program], env: { FIXTURE_MARKER_FILE: markerFile } } };
      const result = await run(claudeAdapter, 'Ask.', { ...opts, mcpServers, collectEvents: true, ...(onUserInput ? { onUserInput } : {}) });
      const marker = (() => { try { return JSON.parse(readFileSync(markerFile, 'utf8')) as unknown; } catch { return undefined; } })();
      return { result, marker, model };
    };
    const asked: UserInputRequest[] = [];
    const answered = await askOnce((request) => (asked.push(request), { answers: { content: { text: 'from-the-user' } } }));
    expect(answered.result.status).toBe('success');
    expect(asked).toMatchObject([{ source: 'elicitation', server: 'asker', questions: [{ id: 'content', text: 'Which marker text?', schema: { type: 'object', required: ['text'] } }] }]);
    expect(answered.marker).toEqual({ action: 'accept', text: 'from-the-user' });
    expect(JSON.stringify(answered.model.requests[1]?.body)).toContain('marker accept: from-the-user');

    const unasked = await askOnce();
    expect(unasked.marker).toBeUndefined();
    // As before onUserInput: the server's own error is the tool's result.
    expect(JSON.stringify(unasked.model.requests[1]?.body)).toContain('Client does not support form elicitation.');
  });

  it('a custom tool that elicits: ctx.elicit() reaches onUserInput on the host, the accepted content goes back to the handler and the model', async () => {
    const schema = { type: 'object', properties: { branch: { type: 'string', description: 'Branch to deploy' } }, required: ['branch'] };
    const deploy = tool({
      name: 'deploy',
      description: 'Deploys after asking which branch',
      input: z.object({}),
      handler: async (_input, ctx) => {
        const answer = await ctx.elicit({ message: 'Which branch?', schema });
        return answer.action === 'accept' ? `deploying ${String(answer.content.branch)}` : `not deployed (${answer.action})`;
      },
    });
    const { model, opts } = await fakeForLive('claude', [{ toolCalls: [{ name: 'mcp__coderline__deploy', input: {} }] }, { text: 'Deployed.' }]);
    const asked: UserInputRequest[] = [];
    const live = await openLive(claudeAdapter, { ...opts, tools: [deploy], onUserInput: (request) => (asked.push(request), { answers: { content: { branch: 'release-7' } } }) });
    const result = await live.send('Deploy.', { collectEvents: true }).result;
    expect(result.status).toBe('success');
    expect(asked).toEqual([{ source: 'elicitation', server: 'coderline', questions: [{ id: 'content', text: 'Which branch?', schema }] }]);
    expect(JSON.stringify(model.requests[1]?.body)).toContain('deploying release-7');
    expect(ofType(result.events, 'user_input').map((event) => [event.phase, event.source])).toEqual([['request', 'elicitation'], ['answer', 'elicitation']]);
  });
});
