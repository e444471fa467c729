// The "Testing your own review script" recipe of docs/recipes.md, run as written.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { run, type SharedStartOpts } from '../../src/index.js';
import { startFakeModel } from '../../src/testing/index.js';

const Findings = z.object({
  findings: z.array(z.object({ file: z.string(), line: z.number(), severity: z.enum(['info', 'warning', 'blocking']), message: z.string() })),
});

async function reviewDiff(diff: string, options: SharedStartOpts = {}) {
  const result = await run('codex', `Review this diff:\n${diff}`, { ...options, permissionPolicy: { mode: 'plan' }, outputSchema: Findings });
  if (result.status !== 'success') throw result.error;
  return result.output!.findings;
}

describe('docs/recipes.md: testing your own review script', () => {
  it("turns the model's findings into blocking ones and sends the diff", async () => {
    const answer = { findings: [{ file: 'src/a.ts', line: 3, severity: 'blocking', message: 'SQL built from user input' }] };
    const model = await startFakeModel({ api: 'openai-responses', script: [{ text: JSON.stringify(answer) }] });
    try {
      const findings = await reviewDiff('+const q = `SELECT ${input}`', await model.env('codex'));
      expect(findings.filter((f) => f.severity === 'blocking')).toHaveLength(1);
      expect(JSON.stringify(model.requests[0]!.body)).toContain('SELECT ${input}');
    } finally {
      await model.close();
    }
  });

  it('fails when the model answers prose instead of findings', async () => {
    const model = await startFakeModel({ api: 'openai-responses', script: [{ text: 'Looks fine to me!' }] });
    try {
      await expect(reviewDiff('+x', await model.env('codex'))).rejects.toMatchObject({ code: 'invalid_output' });
    } finally {
      await model.close();
    }
  });
});
