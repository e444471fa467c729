// Compile-time checks of the public types (`npm test` type-checks before it runs vitest).
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { Coder, CoderStreamEvent, OneShotOpts, OwnedSession, ProviderName, RunResult, ToolOutput, ToolResultEvent } from '../../src/index.js';
import { createCoder, run, start } from '../../src/index.js';
import type { QueueRunOptions } from '../../src/queue/index.js';
import type { FakeModel } from '../../src/testing/index.js';

describe('public types', () => {
  it('types `extra` by provider', () => {
    expectTypeOf<Extract<CoderStreamEvent<'copilot'>, { type: 'tool_result' }>['extra']>().toEqualTypeOf<
      | Readonly<{ exitCode?: unknown; errorCode?: unknown; refused?: boolean; errorType?: unknown; aborted?: boolean; premiumRequests?: unknown } & Record<string, unknown>>
      | undefined
    >();
  });

  it('types `output` from a zod outputSchema', () => {
    const schema = z.object({ ok: z.boolean() });
    type Result = Awaited<ReturnType<typeof run<ProviderName, { outputSchema: typeof schema }>>>;
    expectTypeOf<Result['output']>().toEqualTypeOf<{ ok: boolean } | undefined>();
    expectTypeOf<RunResult['status']>().toEqualTypeOf<'success' | 'error' | 'cancelled' | 'stalled'>();
  });

  it('refuses a misspelt option beside a right one, on run(), start() and createCoder()', () => {
    // A generic's bound alone let `{ model, modle }` through: only an object with no known key was refused.
    // Never called: the checks are the compiler's.
    const misspelt = () => {
      // @ts-expect-error: modle is no option
      void run('claude', 'x', { model: 'm', modle: 'y' });
      // @ts-expect-error: modle is no option
      void start('claude', { model: 'm', modle: 'y' });
      // @ts-expect-error: modle is no option
      void createCoder('claude', { model: 'm', modle: 'y' });
    };
    expectTypeOf(misspelt).toBeFunction();
  });

  it('lets the fake model\'s options go into a queue job as they are', () => {
    // They held SharedStartOpts' callbacks and tools, which a job cannot carry: enqueue() refused the type.
    expectTypeOf<Awaited<ReturnType<FakeModel['env']>>>().toExtend<QueueRunOptions>();
  });

  it('types start() like run(): a built-in name gives that CLI\'s session, whose run() types output', () => {
    const named = () => start('claude');
    expectTypeOf<ReturnType<typeof named>>().toEqualTypeOf<OwnedSession<'claude'>>();
    const schema = z.object({ ok: z.boolean() });
    const session = null as unknown as OwnedSession<'claude'>;
    type Result = Awaited<ReturnType<typeof session.run<{ outputSchema: typeof schema }>>>;
    expectTypeOf<Result['output']>().toEqualTypeOf<{ ok: boolean } | undefined>();
    expectTypeOf<Result['provider']>().toEqualTypeOf<'claude'>();
  });

  it('refuses another CLI\'s option where it is written, and names the key', () => {
    // Never called: the checks are the compiler's (each error sits on the key: TS2353 or TS2322).
    const otherClis = (coder: Coder<'codex'>) => {
      // @ts-expect-error: codexSandbox is Codex's
      void createCoder('claude', { codexSandbox: 'read-only' });
      // @ts-expect-error: codexSandbox is Codex's
      void run('claude', 'x', { codexSandbox: 'read-only' });
      // @ts-expect-error: permissionMode is Claude's
      void start('codex', { permissionMode: 'plan' });
      // @ts-expect-error: piProvider is pi's
      void coder.start({ piProvider: 'openai' });
      // @ts-expect-error: copilotMode is Copilot's
      void coder.open({ copilotMode: 'plan' });
      // A CLI's own options, and options shared by several CLIs spread in, still fit.
      void createCoder('codex', { codexSandbox: 'read-only', model: 'm' });
      const shared: OneShotOpts = { model: 'm' };
      void run('claude', 'x', { ...shared, maxTurns: 2 });
      void createCoder('pi', shared);
    };
    expectTypeOf(otherClis).toBeFunction();
  });

  it('types a tool result\'s output as the JSON the CLI printed', () => {
    // It was unknown: a caller had to cast before reading the text most tools give.
    expectTypeOf<ToolResultEvent['output']>().not.toBeUnknown();
    const text: ToolResultEvent['output'] = 'file contents';
    const structured: ToolResultEvent['output'] = { changes: [{ path: 'a.ts', kind: 'add' }] };
    // @ts-expect-error: not JSON, so never an output
    const notJson: ToolOutput = new Date();
    expectTypeOf([text, structured, notJson]).toBeArray();
  });
});
