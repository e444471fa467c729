// The pool's limiter on its own: how many jobs run at once, in which order the waiting ones start,
// and what its counts say. The pool driving real runs is in lifecycle.test.ts.
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/core/session/pool.js';

/** A job that runs until `finish()` is called, recording when it started. */
function gate(started: number[], id: number) {
  let finish!: (value: number) => void;
  let fail!: (error: Error) => void;
  const done = new Promise<number>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const job = () => {
    started.push(id);
    return done;
  };
  return { job, finish: () => finish(id), fail: (error: Error) => fail(error) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createLimiter', () => {
  it('runs at most `concurrency` jobs at once, the waiting ones in the order they came', async () => {
    const { limiter, activeCount, pendingCount } = createLimiter(2);
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, (_, id) => gate(started, id));
    const results = gates.map((g) => limiter(g.job));
    await settle();
    expect(started).toEqual([0, 1]);
    expect([activeCount(), pendingCount()]).toEqual([2, 3]);

    gates[1]!.finish();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    // A job that comes while others wait goes behind them, even the moment a slot frees.
    gates[0]!.finish();
    const late = gate(started, 5);
    const lateResult = limiter(late.job);
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
    expect([activeCount(), pendingCount()]).toEqual([2, 2]);

    for (const g of gates.slice(2)) g.finish();
    late.finish();
    expect(await Promise.all([...results, lateResult])).toEqual([0, 1, 2, 3, 4, 5]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect([activeCount(), pendingCount()]).toEqual([0, 0]);
  });

  it('a job that fails, or throws before its promise, gives its slot to the next', async () => {
    const { limiter, activeCount, pendingCount } = createLimiter(1);
    const started: number[] = [];
    const failing = gate(started, 0);
    const first = limiter(failing.job);
    const second = limiter(() => {
      throw new Error('thrown at once');
    });
    const third = gate(started, 2);
    const thirdResult = limiter(third.job);
    failing.fail(new Error('failed later'));
    await expect(first).rejects.toThrow('failed later');
    await expect(second).rejects.toThrow('thrown at once');
    await settle();
    expect(started).toEqual([0, 2]);
    third.finish();
    expect(await thirdResult).toBe(2);
    expect([activeCount(), pendingCount()]).toEqual([0, 0]);
  });

  it('keeps the order over a long line', async () => {
    const { limiter } = createLimiter(3);
    const order: number[] = [];
    await Promise.all(Array.from({ length: 2_000 }, (_, i) => limiter(async () => {
      order.push(i);
      await settle();
    })));
    expect(order).toEqual(Array.from({ length: 2_000 }, (_, i) => i));
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a concurrency of %s', (concurrency) => {
    expect(() => createLimiter(concurrency)).toThrow(RangeError);
  });
});
