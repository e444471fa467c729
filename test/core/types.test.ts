// Compile-time checks of the public types (`npm test` type-checks before it runs vitest).
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { CoderStreamEvent, RunResult } from '../../src/index.js';
import { run } from '../../src/index.js';

describe('public types', () => {
  it('types `extra` by provider', () => {
    expectTypeOf<Extract<CoderStreamEvent<'copilot'>, { type: 'tool_result' }>['extra']>().toEqualTypeOf<
      | Readonly<{ exitCode?: unknown; errorCode?: unknown; refused?: boolean; errorType?: unknown; aborted?: boolean; premiumRequests?: unknown } & Record<string, unknown>>
      | undefined
    >();
  });

  it('types `output` from a zod outputSchema', () => {
    const schema = z.object({ ok: z.boolean() });
    type Result = Awaited<ReturnType<typeof run<{ outputSchema: typeof schema }>>>;
    expectTypeOf<Result['output']>().toEqualTypeOf<{ ok: boolean } | undefined>();
    expectTypeOf<RunResult['status']>().toEqualTypeOf<'success' | 'error' | 'cancelled' | 'stalled'>();
  });
});
