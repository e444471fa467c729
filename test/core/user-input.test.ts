// onUserInput's discipline without a CLI: what askUserInput tells the CLI for every kind of callback,
// the codecs' reading of hostile questions and answers, and the CLIs that refuse the option before
// anything starts.
import { describe, expect, it } from 'vitest';
import { claudeUserInput } from '../../src/adapters/claude/user-input.js';
import { piLive } from '../../src/adapters/pi/live.js';
import { createCoder, FeatureNotSupportedError, run, type TranslatedEvent, type UserInputRequest } from '../../src/index.js';
import { askUserInput, type OnUserInput } from '../../src/user-input.js';

const request: UserInputRequest = { source: 'tool', questions: [{ id: 'q', text: 'Which?', options: ['a', 'b'] }] };

async function ask(onUserInput: OnUserInput, signal = new AbortController().signal, timeoutMs = 1_000) {
  const events: TranslatedEvent[] = [];
  const reply = await askUserInput(onUserInput, request, { timeoutMs, signal, emit: (event) => events.push(event), raw: null });
  return { reply, events };
}

describe('askUserInput', () => {
  it('an answer goes through, with a request and an answer event', async () => {
    const { reply, events } = await ask(() => ({ answers: { q: 'a' } }));
    expect(reply).toEqual({ answers: { q: 'a' } });
    expect(events).toMatchObject([{ type: 'user_input', phase: 'request', questions: request.questions }, { type: 'user_input', phase: 'answer', answers: { q: 'a' } }]);
  });

  it('a decline is a decline', async () => {
    const { reply, events } = await ask(async () => ({ decline: true }));
    expect(reply).toEqual({ decline: true });
    expect(events.at(-1)).toMatchObject({ phase: 'answer', decline: true });
  });

  it.each([
    ['throws', () => { throw new Error('boom'); }, 'boom'],
    ['returns something else', () => 'yes' as never, 'expected { answers } or { decline: true }'],
    ['returns answers that are no object', () => ({ answers: ['a'] }) as never, 'expected { answers } or { decline: true }'],
    ['never answers', () => new Promise<never>(() => undefined), 'did not answer within 50 ms'],
  ])('a callback that %s: the CLI is told nobody answered, and a non-fatal error event says why', async (_what, callback, why) => {
    const { reply, events } = await ask(callback as OnUserInput, new AbortController().signal, 50);
    expect(reply).toEqual({ noAnswer: expect.stringContaining(why) });
    expect(events.filter((event) => event.type === 'error')).toMatchObject([{ fatal: false, message: expect.stringContaining(why) }]);
    expect(events.at(-1)).toEqual(expect.not.objectContaining({ answers: expect.anything() }));
  });

  it('a withdrawn question aborts the callback\'s signal and is no error', async () => {
    const withdraw = new AbortController();
    let aborted = false;
    let asked!: () => void;
    const called = new Promise<void>((resolve) => (asked = resolve));
    const pending = ask((_request, { signal }) => new Promise(() => (signal.addEventListener('abort', () => (aborted = true)), asked())), withdraw.signal);
    await called;
    withdraw.abort();
    const { reply, events } = await pending;
    expect(aborted).toBe(true);
    expect(reply).toEqual({ noAnswer: 'the question was withdrawn' });
    expect(events.some((event) => event.type === 'error')).toBe(false);
  });

  it('a question already withdrawn is not put to the callback', async () => {
    const withdrawn = new AbortController();
    withdrawn.abort();
    let called = false;
    const { reply } = await ask(() => ((called = true), { decline: true }), withdrawn.signal);
    expect(reply).toEqual({ noAnswer: 'the question was withdrawn' });
    expect(called).toBe(false);
  });

  it('the callback gets a copy: changing the request changes nothing the CLI or the events see', async () => {
    const { events } = await ask((asked) => {
      asked.questions[0]!.text = 'changed';
      return { decline: true };
    });
    expect(request.questions[0]!.text).toBe('Which?');
    expect(events[0]).toMatchObject({ questions: [{ text: 'Which?' }] });
  });
});

describe("Claude's AskUserQuestion codec (hostile input)", () => {
  const body = { tool_name: 'AskUserQuestion', tool_use_id: 't1', input: { questions: [{ question: 'Pick', options: [{ label: 'x' }, { nolabel: true }, 'y'] }] } };

  it('reads only the labels of options, and answers only the questions asked', () => {
    const asked = claudeUserInput.request(body)!;
    expect(asked).toEqual({ source: 'tool', toolUseId: 't1', questions: [{ id: 'Pick', text: 'Pick', options: ['x'] }] });
    // An answer keyed by an inherited name or a question never asked is not passed on.
    const answers = JSON.parse('{"Pick": "x", "constructor": "c", "__proto__": "p", "other": "o"}') as Record<string, unknown>;
    expect(claudeUserInput.answer({ answers }, asked, body)).toEqual({ behavior: 'allow', updatedInput: { ...body.input, answers: { Pick: 'x' } } });
  });

  it.each([
    ['another tool', { ...body, tool_name: 'Bash' }],
    ['no questions', { ...body, input: { questions: [] } }],
    ['a question without text', { ...body, input: { questions: [{ header: 'h' }] } }],
    ['questions that are no list', { ...body, input: { questions: 'Pick?' } }],
    ['no object', 'AskUserQuestion'],
  ])('%s is not a question to the user (it stays a permission question)', (_what, hostile) => {
    expect(claudeUserInput.request(hostile)).toBeUndefined();
  });
});

describe("pi's extension dialogs codec (hostile input)", () => {
  const dialogs = piLive.userInput!;
  const select = { type: 'extension_ui_request', id: 'd1', method: 'select', title: 'Pick', options: ['a', 7, null, 'b'] };

  it('a select offers only its string options; an answer under an inherited key is no answer (cancelled)', () => {
    const asked = dialogs.request(select)!;
    expect(asked).toEqual({ source: 'dialog', questions: [{ id: 'value', text: 'Pick', options: ['a', 'b'] }] });
    expect(dialogs.answer({ answers: { value: 'b' } }, asked, select)).toEqual({ value: 'b' });
    expect(dialogs.answer({ answers: JSON.parse('{"__proto__": "a"}') as Record<string, unknown> }, asked, select)).toEqual({ cancelled: true });
    expect(dialogs.answer({ decline: true }, asked, select)).toEqual({ cancelled: true });
    expect(dialogs.answer({ noAnswer: 'timeout' }, asked, select)).toEqual({ cancelled: true });
  });

  it('a confirm is confirmed only by "Yes" or true', () => {
    const confirm = { type: 'extension_ui_request', id: 'd2', method: 'confirm', title: 'Sure?' };
    const asked = dialogs.request(confirm)!;
    expect(asked.questions[0]).toEqual({ id: 'value', text: 'Sure?', options: ['Yes', 'No'] });
    expect([true, 'Yes', 'yes', 'No', 1].map((value) => dialogs.answer({ answers: { value } }, asked, confirm))).toEqual([
      { confirmed: true }, { confirmed: true }, { confirmed: false }, { confirmed: false }, { confirmed: false },
    ]);
  });

  it.each([
    ['the SDK\'s own canUseTool dialog', { type: 'extension_ui_request', id: 'd3', method: 'input', title: 'coderline:canUseTool', placeholder: '{}' }],
    ['a fire-and-forget notice', { type: 'extension_ui_request', id: 'd4', method: 'notify', message: 'hi' }],
    ['another record', { type: 'response', id: 'd5' }],
  ])('%s is not a question to the user', (_what, body) => {
    expect(dialogs.request(body)).toBeUndefined();
  });
});

describe('where onUserInput cannot be carried', () => {
  it('copilot refuses it before anything starts, one-shot and live', async () => {
    const opts = { executablePath: '/nonexistent/copilot', onUserInput: () => ({ decline: true as const }) };
    await expect(run('copilot', 'hi', opts)).rejects.toBeInstanceOf(FeatureNotSupportedError);
    const coder = createCoder('copilot', { executablePath: '/nonexistent/copilot' });
    await expect(coder.open({ onUserInput: opts.onUserInput })).rejects.toThrow(/onUserInput[\s\S]*--no-ask-user/);
    await coder.close();
  });
});
