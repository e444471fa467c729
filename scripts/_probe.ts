import { execa } from 'execa';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildClaudeInvocation } from '/work/wt-meaning/src/adapters/claude/argv.js';
import { buildEnv } from '/work/wt-meaning/src/core/process/env.js';
import { startFakeModel } from '/work/wt-meaning/src/testing/index.js';
const spec = JSON.parse(process.argv[2]!);
const fake = await startFakeModel({ api: 'anthropic', script: spec.script });
const opts = { ...(await fake.env('claude', {})), ...(spec.opts ?? {}) };
const workDir = await mkdtemp(join(tmpdir(), 'meaning-'));
let session: any = { kind: 'new' };
for (const prompt of spec.prompts ?? ['Please answer.']) {
  const inv = await buildClaudeInvocation({ prompt, opts, session, cwd: workDir, writeTempFile: () => Promise.reject(new Error('x')), coderStateDir: () => Promise.resolve(opts.extraEnv!.CLAUDE_CONFIG_DIR!), outputJsonSchema: undefined });
  const env = buildEnv({ inherited: process.env, adapter: inv.env, extra: { ...opts.extraEnv, ...(spec.env ?? {}) }, unset: opts.unsetEnv });
  const r = await execa('/work/wt-meaning/node_modules/.bin/claude', inv.args, { input: inv.stdin, cwd: workDir, env, extendEnv: false, reject: false, timeout: 90000 });
  console.log('EXIT', r.exitCode, String(r.stderr).slice(0, 300));
  for (const line of String(r.stdout).split('\n')) { if (line.trim()) console.log(line.slice(0, spec.width ?? 400)); }
  const last = JSON.parse(String(r.stdout).trim().split('\n').at(-1) ?? '{}');
  session = { kind: 'resume', sessionId: last.session_id };
}
console.log('REQUESTS', fake.requests.length);
if (spec.dumpRequests) for (const r of fake.requests) console.log(JSON.stringify((r.body as any).messages).slice(-spec.dumpRequests));
await fake.close();
