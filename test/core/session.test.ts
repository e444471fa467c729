import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCoder, FeatureNotInVersionError, FeatureNotSupportedError, OutputValidationError, run, type CoderStreamEvent } from '../../src/index.js';
import { done, fakeAdapter, script } from '../support/fake-adapter.js';
import { isGroupAlive } from '../support/processes.js';

const fake = fakeAdapter();
const argsRecord = { echoArgs: 1 };
const argsOf = (events: CoderStreamEvent<string>[] | undefined) =>
  (events?.find((e) => e.type === 'progress' && e.subtype === 'args')?.raw as { args: string[] }).args;

describe('sessions', () => {
  it('queues a second run behind the first, in order, and resumes the id the first one got', async () => {
    const coder = createCoder(fake, script([argsRecord, { sleep: 150 }, { out: { type: 'init', sessionId: 'sess-1' } }, done()]));
    const session = coder.start();
    const order: string[] = [];
    const first = session.run('one', { collectEvents: true }).then((r) => (order.push('first'), r));
    const second = session.run('two', { collectEvents: true }).then((r) => (order.push('second'), r));
    const [a, b] = await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
    expect(argsOf(a.events)).toEqual([]);
    expect(argsOf(b.events)).toEqual(['--resume', 'sess-1']);
    expect(session.id).toBe('sess-1');
  });

  it('resume(), resumeLatest() and fork() tell the CLI which session to use', async () => {
    const coder = createCoder(fake, script([argsRecord, { out: { type: 'init', sessionId: 'new-id' } }, done()]));
    const resumed = await coder.resume('old-id').run('x', { collectEvents: true });
    expect(argsOf(resumed.events)).toEqual(['--resume', 'old-id']);
    const latest = await coder.resumeLatest().run('x', { collectEvents: true });
    expect(argsOf(latest.events)).toEqual(['--continue']);
    const source = coder.start();
    await source.run('x');
    const fork = await source.fork();
    const forked = await fork.run('x', { collectEvents: true });
    expect(argsOf(forked.events)).toEqual(['--fork', 'new-id']);
  });

  it('fork() on a CLI that cannot fork is FeatureNotSupportedError', async () => {
    const coder = createCoder(fakeAdapter({ canFork: false }), script([done()]));
    await expect(coder.start().fork()).rejects.toBeInstanceOf(FeatureNotSupportedError);
  });

  it('a fork on a version older than the adapter\'s forkSince is FeatureNotInVersionError, and the CLI never runs the fork', async () => {
    const coder = createCoder(fakeAdapter({ forkSince: '1.3.0' }), script([argsRecord, { out: { type: 'init', sessionId: 'parent' } }, done()]));
    const source = coder.start();
    await source.run('x');
    const fork = await source.fork();
    const events: CoderStreamEvent<string>[] = [];
    const attempt = fork.run('x', { onEvent: (event) => events.push(event) });
    await expect(attempt).rejects.toBeInstanceOf(FeatureNotInVersionError);
    await expect(attempt).rejects.toMatchObject({ option: 'fork', version: '1.2.0', since: '1.3.0' });
    expect(events.filter((event) => event.type === 'progress' && event.subtype === 'args')).toEqual([]);
  });

  it('reports per-run usage when the CLI reports session totals, also after resume()', async () => {
    const coder = createCoder(fakeAdapter({ usageIsCumulative: true }), script([{ out: { type: 'init', sessionId: 'cum' } }, { usageFromPrompt: 1 }, done()]));
    const session = coder.start();
    expect((await session.run('100')).usage).toMatchObject({ inputTokens: 100, outputTokens: 10 });
    const second = await session.run('250', { collectEvents: true });
    expect(second.usage).toMatchObject({ inputTokens: 150, outputTokens: 15 });
    expect(second.events?.find((e) => e.type === 'usage')).toMatchObject({ usage: { inputTokens: 150 } });
    expect((await coder.resume('cum').run('400')).usage.inputTokens).toBe(150);
  });

  it('resumeLatest() counts from the total of the session the CLI picks, when this coder ran it', async () => {
    const coder = createCoder(fakeAdapter({ usageIsCumulative: true }), script([{ out: { type: 'init', sessionId: 'latest' } }, { usageFromPrompt: 1 }, done()]));
    await coder.start().run('100');
    const continued = await coder.resumeLatest().run('250', { collectEvents: true });
    expect(continued.usage.inputTokens).toBe(150);
    expect(continued.events?.find((e) => e.type === 'usage')).toMatchObject({ usage: { inputTokens: 150 } });
    // And the session's remembered total moved on: the next resume counts from 250.
    expect((await coder.resume('latest').run('400')).usage.inputTokens).toBe(150);
  });

  it("counts a fork from its parent's total, not from zero", async () => {
    const coder = createCoder(fakeAdapter({ usageIsCumulative: true }), script([{ out: { type: 'init', sessionId: 'parent' } }, { usageFromPrompt: 1 }, done()]));
    const parent = coder.start();
    await parent.run('100');
    const fork = await parent.fork();
    expect((await fork.run('160')).usage.inputTokens).toBe(60);
  });
});

describe('stream()', () => {
  it('yields events while the CLI runs and exposes the result', async () => {
    const session = createCoder(fake, script([{ out: { type: 'message', text: 'a', delta: true } }, { sleep: 1_000 }, { out: { type: 'message', text: 'b', delta: true } }, done('ab')])).start();
    const stream = session.stream('go');
    const seen: Array<[string, number, number]> = [];
    for await (const event of stream) seen.push([event.type, Date.now(), event.ts]);
    const result = await stream.result;
    expect(seen.map(([type]) => type)).toEqual(['message', 'message', 'done']);
    // The first delta arrived before the CLI slept: events are not held until the end, and their
    // timestamps say when each came (bounds loose enough for a loaded machine, tight enough to tell).
    expect(seen[1]![1] - seen[0]![1]).toBeGreaterThanOrEqual(500);
    expect(seen[1]![2] - seen[0]![2]).toBeGreaterThanOrEqual(500);
    expect(Math.abs(seen[0]![2] - seen[0]![1])).toBeLessThan(5_000);
    expect(result.text).toBe('ab');
  });

  it('breaking out of the loop stops the run and its process group', async () => {
    const session = createCoder(fake, script([{ out: { type: 'message', text: 'a' } }, { hang: 1 }])).start();
    const stream = session.stream('go');
    for await (const event of stream) if (event.type === 'message') break;
    const result = await stream.result;
    expect(result.status).toBe('cancelled');
    expect(isGroupAlive(result.pid!)).toBe(false);
  });

  it('a waiting reader gets the first event of a chunk before the rest of the chunk is translated', async () => {
    // Five records in one write: they reach the host as one pipe read.
    const records = ['a', 'b', 'c', 'd', 'e'].map((text) => `${JSON.stringify({ type: 'message', text })}\n`).join('');
    let linesRead = 0;
    const stream = createCoder(fake, script([{ rawHex: Buffer.from(records).toString('hex') }, done()])).start().stream('go', { onRawLine: () => (linesRead += 1) });
    const readBefore: number[] = [];
    for await (const event of stream) if (event.type === 'message') readBefore.push(linesRead);
    expect((await stream.result).status).toBe('success');
    expect(readBefore[0]).toBe(1);
    expect(readBefore).toHaveLength(5);
  });

  it('holds back a fast CLI while the consumer is slow, and loses nothing', async () => {
    const session = createCoder(fake, script([{ lines: 5000 }, done()])).start();
    const stream = session.stream('go');
    let count = 0;
    for await (const event of stream) {
      if (event.type !== 'message') continue;
      expect(event.text).toBe(`line ${count}`);
      count += 1;
      if (count % 1000 === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(count).toBe(5000);
    expect((await stream.result).status).toBe('success');
  });
});

describe('stream() nobody reads', () => {
  const messages = (events: CoderStreamEvent<string>[]) => events.flatMap((event) => (event.type === 'message' ? [event.text] : []));

  it('.result settles without a reader; a reader that comes later gets the latest events, told how many were dropped', async () => {
    // ~1.6 MB of lines: far past what a pipe holds for a reader, and past what is kept unread.
    const total = 40_000;
    const session = createCoder(fake, script([{ lines: total }, done('end')])).start();
    const stream = session.stream('go');
    const result = await stream.result;
    expect(result).toMatchObject({ status: 'success', text: 'end' });

    const events: CoderStreamEvent<string>[] = [];
    for await (const event of stream) events.push(event);
    const [notice, ...kept] = events;
    expect(notice).toMatchObject({ type: 'progress', kind: 'warning', subtype: 'unread_events_dropped', provider: 'fake' });
    const dropped = Number(/^(\d+) earlier events/.exec((notice as { message: string }).message)?.[1]);
    // What is kept is the end of the run, whole: the lines after the dropped ones, then done.
    const texts = messages(kept);
    expect(texts[0]).toBe(`line ${dropped}`);
    expect(texts).toEqual(Array.from({ length: total - dropped }, (_, i) => `line ${dropped + i}`));
    expect(kept.at(-1)?.type).toBe('done');
    // About 1 MiB of ~40-byte lines is kept, not the whole run.
    expect(texts.length).toBeGreaterThan(20_000);
    expect(texts.length).toBeLessThan(30_000);
  });

  it('the stall timer still stops a CLI that goes quiet while nobody reads', async () => {
    // Long enough that a slow start of the fake CLI on a loaded machine does not pass for the stall.
    const session = createCoder(fake, { ...script([{ lines: 20_000 }, { hang: 1 }]), stallTimeoutMs: 5_000 }).start();
    const stream = session.stream('go');
    const result = await stream.result;
    expect(result.status).toBe('stalled');
    expect(isGroupAlive(result.pid!)).toBe(false);
    // The CLI wrote all it had before it went quiet: it was never held back for a reader.
    const events: CoderStreamEvent<string>[] = [];
    for await (const event of stream) events.push(event);
    expect(messages(events).at(-1)).toBe('line 19999');
  });

  it('a second next() while the first waits does not replace it: both settle, in order', async () => {
    const session = createCoder(fake, script([{ sleep: 50 }, { out: { type: 'message', text: 'a' } }, { out: { type: 'message', text: 'b' } }, done()])).start();
    const iterator = session.stream('go')[Symbol.asyncIterator]();
    const [first, second] = await Promise.all([iterator.next(), iterator.next()]);
    expect([first.value, second.value]).toMatchObject([{ type: 'message', text: 'a' }, { type: 'message', text: 'b' }]);
    const [third, end, afterEnd] = await Promise.all([iterator.next(), iterator.next(), iterator.next()]);
    expect(third.value).toMatchObject({ type: 'done' });
    expect([end.done, afterEnd.done]).toEqual([true, true]);
  });
});

describe('stream() with a consumer slower than the CLI', () => {
  it('keeps the CLI from writing far ahead of the consumer, and its wait is no stall', async () => {
    // ~1 MB of lines: far more than the SDK lets wait for a consumer, so the CLI must wait for it. The
    // consumer sleeps past the stall timeout, which is long enough that a loaded machine's pauses
    // (a slow start of the CLI, say) do not pass for a stall.
    const session = createCoder(fake, { ...script([{ lines: 20_000 }, { stamp: 1 }, done()]), stallTimeoutMs: 5_000 }).start();
    const stream = session.stream('go');
    let wokeAt = 0;
    let writtenBy = 0;
    for await (const event of stream) {
      if (event.type !== 'message') continue;
      if (wokeAt === 0) {
        await new Promise((resolve) => setTimeout(resolve, 6_000));
        wokeAt = Date.now();
      }
      if (event.text.startsWith('written by ')) writtenBy = Number(event.text.slice('written by '.length));
    }
    expect(writtenBy).toBeGreaterThanOrEqual(wokeAt);
    expect((await stream.result).status).toBe('success');
  });

  it('gets every line a CLI wrote before it exited, however long the consumer takes', async () => {
    // The consumer sleeps on the first event. The CLI writes more than the SDK lets wait as bytes (so
    // the pipe is paused), then the last lines, which stay in the paused pipe, and exits.
    const session = createCoder(fake, script([{ lines: 7000 }, { sleep: 300 }, { lines: 500 }, done()])).start();
    const stream = session.stream('go');
    const texts: string[] = [];
    const warnings: string[] = [];
    for await (const event of stream) {
      if (event.type === 'progress' && event.kind === 'warning') warnings.push(event.message ?? '');
      if (event.type !== 'message') continue;
      if (texts.length === 0) await new Promise((resolve) => setTimeout(resolve, 3_000));
      texts.push(event.text);
    }
    const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i}`);
    expect(texts).toEqual([...numbered(7000), ...numbered(500)]);
    expect(warnings).toEqual([]);
    expect((await stream.result).status).toBe('success');
  });
});

describe('structured output', () => {
  const answer = z.object({ verdict: z.enum(['ok', 'bad']), score: z.number() });

  it('validates and types the answer with a zod schema', async () => {
    const result = await run(fake, 'x', { ...script([done('{"verdict":"ok","score":3}')]), outputSchema: answer });
    expect(result.status).toBe('success');
    const verdict: 'ok' | 'bad' | undefined = result.output?.verdict;
    expect(verdict).toBe('ok');
  });

  it('takes native structured output from the final record when the CLI gives it', async () => {
    const result = await run(fake, 'x', { ...script([done('prose', { output: { verdict: 'bad', score: 1 } })]), outputSchema: answer });
    expect(result.output).toEqual({ verdict: 'bad', score: 1 });
  });

  it('an answer that does not match is invalid_output, with what was received', async () => {
    const result = await run(fake, 'x', { ...script([done('{"verdict":"maybe","score":3}')]), outputSchema: answer });
    expect(result.status).toBe('error');
    expect(result.error).toBeInstanceOf(OutputValidationError);
    expect(result.error?.code).toBe('invalid_output');
    expect((result.error as OutputValidationError).received).toEqual({ verdict: 'maybe', score: 3 });
  });

  it('prose instead of JSON is invalid_output; a JSON Schema object works too', async () => {
    const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    const prose = await run(fake, 'x', { ...script([done('I think it is fine')]), outputSchema: schema });
    expect(prose.error?.code).toBe('invalid_output');
    const fenced = await run(fake, 'x', { ...script([done('```json\n{"n": 4}\n```')]), outputSchema: schema });
    expect(fenced.output).toEqual({ n: 4 });
  });
});

describe('user callbacks', () => {
  it('a throwing onRawLine stops the run and the error reaches the caller', async () => {
    const attempt = run(fake, 'x', { ...script([{ out: { type: 'message', text: 'a' } }, { hang: 1 }]), onRawLine: () => { throw new Error('consumer bug'); } });
    await expect(attempt).rejects.toThrow('consumer bug');
  });
});
