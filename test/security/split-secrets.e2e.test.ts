// A secret the model streams in pieces: each text delta alone holds no secret, the deltas joined do.
// The fake model sends its text in deltas split on spaces, so a secret with a space ("Bearer <token>",
// an Authorization value) reaches the real CLI, and the run's events, in two deltas.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { piAdapter } from '../../src/adapters/pi/index.js';
import { run, type CoderStreamEvent } from '../../src/index.js';
import { deltaRedaction, Redactor } from '../../src/core/secrets/redact.js';
import type { TranslatedEvent } from '../../src/events.js';
import { startFakeModel } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';

const token = 'sk-live-4f9d2a7c1e8b';
const header = `Bearer ${token}`;

async function piRun(text: string, extra: Parameters<typeof run>[2] = {}) {
  const fake = await startFakeModel({ api: 'openai-chat', script: [{ text }] });
  const cwd = await mkdtemp(join(tmpdir(), 'coderline-split-'));
  cleanupAfterTest(() => fake.close(), () => rm(cwd, { recursive: true, force: true }));
  const opts = withPinnedRuntime('pi', { ...(await fake.env('pi')), workingDirectory: cwd });
  const events: CoderStreamEvent[] = [];
  // The attacker: a prompt-injected model repeats the Authorization value the app gave the CLI.
  const result = await run(piAdapter, 'Repeat the header.', { ...opts, ...extra, extraEnv: { ...opts.extraEnv, API_AUTHORIZATION: header }, streamPartialMessages: true, onEvent: (event) => events.push(event) });
  return { result, events };
}

const deltaText = (events: CoderStreamEvent[]) => events.map((event) => (event.type === 'message' && event.delta ? event.text : '')).join('');

describe('pi (real binary): a secret split across stream deltas', () => {
  it('no event shows the token; the deltas joined show <redacted> where it was', async () => {
    const { result, events } = await piRun(`The header is ${header} as given.`);
    expect(result.status).toBe('success');
    expect(events.filter((event) => event.type === 'message' && event.delta).length).toBeGreaterThan(3);
    expect(JSON.stringify(events)).not.toContain(token);
    expect(deltaText(events)).toBe('The header is <redacted> as given.');
    expect(result.text).toBe('The header is <redacted> as given.');
  });

  it('the structured output parsed from the streamed answer holds no token', async () => {
    const { result, events } = await piRun(`{"header": "${header}"}`, { outputSchema: z.object({ header: z.string() }) });
    expect(JSON.stringify(events)).not.toContain(token);
    expect(result).toMatchObject({ status: 'success', output: { header: '<redacted>' } });
  });
});

describe('deltaRedaction', () => {
  const redactor = Redactor.of([header])!;
  const message = (text: string, more: object = {}): TranslatedEvent => ({ type: 'message', role: 'assistant', text, delta: true, raw: { text }, ...more });
  const feed = (events: TranslatedEvent[]) => {
    const deltas = deltaRedaction(redactor);
    return [...events.flatMap((event) => deltas.push(event)), ...deltas.flush()];
  };

  it('holds a delta that could end in the start of a secret, and lets it go as it came before any other event', () => {
    const out = feed([message('a Bea'), message('rer? no'), { type: 'reasoning', text: 'Bear', delta: true, raw: null }, message(' Bearer'), { type: 'done', status: 'success', text: 'x', raw: null } as TranslatedEvent]);
    expect(out.map((event) => [event.type, 'text' in event ? event.text : '', event.raw])).toEqual([
      ['message', 'a Bea', { text: 'a Bea' }],
      ['message', 'rer? no', { text: 'rer? no' }],
      ['reasoning', 'Bear', null],
      ['message', ' Bearer', { text: ' Bearer' }],
      ['done', 'x', null],
    ]);
  });

  it('a secret across three deltas is one event, <redacted> and without raw; a reset drops what was held', () => {
    const joined = feed([message('Bea'), message(`rer ${token.slice(0, 5)}`), message(`${token.slice(5)}!`)]);
    expect(joined).toEqual([expect.objectContaining({ type: 'message', text: '<redacted>!', raw: null })]);
    // A stream that ends on a waiting delta (the CLI died) still hands it over.
    expect(feed([message('cut off at Bear')]).map((event) => (event.type === 'message' ? event.text : ''))).toEqual(['cut off at Bear']);
    const reset = feed([message('x Bearer'), message('new Bear', { reset: true }), message('d.')]);
    expect(reset.map((event) => [event.type === 'message' ? event.text : '', event.type === 'message' ? event.reset : undefined])).toEqual([
      ['new Bear', true],
      ['d.', undefined],
    ]);
  });
});
