// An AdapterSpec for the scriptable fake CLI: lets the core's tests drive every process situation.
// Its records are made up for these tests ({type: init|message|done|error|usage, …}).
import { fileURLToPath } from 'node:url';
import type { AdapterSpec, TranslatedEvent, Usage } from '../../src/index.js';

export const FAKE_CLI = fileURLToPath(new URL('../fake-cli/fake-cli.mjs', import.meta.url));

type FakeRecord = { type?: string; [key: string]: unknown };

export function fakeAdapter(overrides: Partial<AdapterSpec<'fake'>> = {}): AdapterSpec<'fake'> {
  return {
    name: 'fake',
    binary: FAKE_CLI,
    installHint: 'It ships with the test suite.',
    versions: { min: '1.0.0', testedMax: '1.2.0' },
    parseVersion: (output) => /fake-cli (\d+\.\d+\.\d+)/.exec(output)?.[1],
    capabilities: {
      model: { level: 'native', how: '--model' },
      outputSchema: { level: 'best-effort', how: '--schema <tmpfile>' },
      isolation: { level: 'native', how: "strict: FAKE_CLI_HOME = the coder's state dir" },
    },
    insteadHints: { maxTurns: 'The fake CLI has no turn limit.' },
    canFork: true,
    auth: { variables: ['FAKE_CLI_API_KEY'], storedLogin: 'nowhere' },
    environment: { denied: ['FAKE_CLI_NESTED'], minimal: ['FAKE_CLI_HOME'] },
    buildInvocation: async (ctx) => {
      const args: string[] = [];
      if (ctx.opts.model) args.push('--model', ctx.opts.model);
      if (ctx.outputJsonSchema) args.push('--schema', await ctx.writeTempFile('schema.json', JSON.stringify(ctx.outputJsonSchema)));
      if (ctx.session.kind === 'resume' || ctx.session.kind === 'fork') args.push(`--${ctx.session.kind}`, ctx.session.sessionId);
      if (ctx.session.kind === 'continue') args.push('--continue');
      const env: Record<string, string> = { FAKE_ADAPTER_ENV: 'from-adapter' };
      if (ctx.opts.isolation === 'strict') env.FAKE_CLI_HOME = await ctx.coderStateDir();
      return { args, stdin: ctx.prompt, env };
    },
    createTranslator: () => ({
      translate(record): TranslatedEvent[] {
        const r = record as FakeRecord;
        switch (r.type) {
          case 'init':
            return [{ type: 'init', sessionId: r.sessionId as string, raw: record }];
          case 'message':
            return [{ type: 'message', role: 'assistant', text: String(r.text), delta: Boolean(r.delta), raw: record }];
          case 'usage':
            return [{ type: 'usage', usage: r.usage as Usage, raw: record }];
          case 'error':
            return [{ type: 'error', code: (r.code as 'server') ?? 'server', message: String(r.message), fatal: Boolean(r.fatal), raw: record }];
          case 'done':
            return [{ type: 'done', status: (r.status as 'success') ?? 'success', ...(r.text !== undefined ? { text: String(r.text) } : {}), ...(r.sessionId ? { sessionId: String(r.sessionId) } : {}), ...(r.output !== undefined ? { output: r.output } : {}), raw: record }];
          case 'throw':
            throw new Error('translator failure on purpose');
          default:
            return [{ type: 'progress', kind: 'unknown', subtype: String(r.type), raw: record }];
        }
      },
    }),
    ...overrides,
  };
}

/** Options that make the fake CLI follow `steps`. */
export function script(steps: unknown[], extraEnv: Record<string, string> = {}) {
  return { extraEnv: { FAKE_CLI_SCRIPT: JSON.stringify(steps), ...extraEnv } };
}

export const done = (text = 'final', extra: Record<string, unknown> = {}) => ({ out: { type: 'done', text, ...extra } });
