// The CI review recipe (examples/ci-review/review.ts) end to end: a real git repository, the real
// claude binary against the fake Anthropic server, and what GitHub Actions would see.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeModel, type FakeEnvOptions, type FakeModel, type Script, type ScriptStep } from '../../src/testing/index.js';
import { repoRoot, sandboxInvocation, startScript } from './command.js';
import { cleanupAfterTest } from '../support/cleanup.js';

const script = join(repoRoot, 'examples', 'ci-review', 'review.ts');
const bin = join(repoRoot, 'node_modules', '.bin');


/** What a review runs against: a fake model, a git repo with one reviewed commit, and the env and model that point claude at the fake. */
interface Review {
  fake: FakeModel;
  repo: string;
  env: NodeJS.ProcessEnv;
  model: string;
}

async function setUp(serverScript: Script, options: FakeEnvOptions = {}): Promise<Review> {
  const fake = await startFakeModel({ api: 'anthropic', script: serverScript });
  const root = await mkdtemp(join(tmpdir(), 'coderline-ci-review-'));
  cleanupAfterTest(() => fake.close(), () => rm(root, { recursive: true, force: true }));
  const repo = join(root, 'repo');
  await mkdir(repo);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'test@example.invalid');
  git('config', 'user.name', 'Test');
  await mkdir(join(repo, 'src'));
  await writeFile(join(repo, 'src', 'app.ts'), 'export function ratio(a: number, b: number) {\n  return 0;\n}\n');
  git('add', '.');
  git('commit', '-qm', 'base');
  await writeFile(join(repo, 'src', 'app.ts'), 'export function ratio(a: number, b: number) {\n  // divide\n  return a / b;\n}\n');
  git('commit', '-qam', 'change');
  const opts = await fake.env('claude', options);
  const { env } = sandboxInvocation(opts);
  // The script finds `claude` on PATH, as in the workflow.
  return { fake, repo, model: opts.model!, env: { ...env, PATH: `${bin}:${env.PATH ?? ''}`, GITHUB_STEP_SUMMARY: join(root, 'summary.md') } };
}

const structured = (findings: unknown[]): ScriptStep => ({ toolCalls: [{ name: 'StructuredOutput', input: { summary: 'Adds a ratio.', findings } }] });
const review = ({ repo, env, model }: Review, ...args: string[]) =>
  startScript(script, ['--cli', 'claude', '--model', model, ...args], { cwd: repo, env }).done;

describe('examples/ci-review (real claude, fake model server)', () => {
  it('reviews `git diff BASE...HEAD`: annotations on stdout, a Markdown summary, exit 1 on a blocking finding', async () => {
    const setup = await setUp([
      structured([
        { file: 'src/app.ts', line: 3, severity: 'error', message: 'Division by zero\nwhen b is 0, 100% broken' },
        { file: 'src/app.ts', line: 2, severity: 'info', message: 'The comment says nothing.' },
      ]),
      { text: 'Reviewed.' },
    ]);
    const result = await review(setup, '--base', 'HEAD~1');

    expect(result.stderr).not.toMatch(/review: .*could not/);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')).toEqual([
      '::error file=src/app.ts,line=3,title=AI review%3A error::Division by zero%0Awhen b is 0, 100%25 broken',
      '::notice file=src/app.ts,line=2,title=AI review%3A info::The comment says nothing.',
      '',
    ]);
    const summary = await readFile(setup.env.GITHUB_STEP_SUMMARY!, 'utf8');
    expect(summary).toContain('## Code review by claude\n\nAdds a ratio.\n');
    expect(summary).toContain('| error | `src/app.ts` | 3 | Division by zero when b is 0, 100% broken |\n| info | `src/app.ts` | 2 |');
    expect(summary).toContain('**Failed**: 1 finding at or above `error`.');

    // The model saw the PR's diff, and claude ran read-only: it tells the model so in plan mode.
    const request = JSON.stringify(setup.fake.requests[0]?.body);
    expect(request).toContain('Plan mode is active');
    expect(request).toContain('+  return a / b;');
    expect(request).toContain('-  return 0;');
  });

  it('reads a diff from stdin; warnings pass with --fail-on error and fail with --fail-on warning', async () => {
    const warning = structured([{ file: 'src/app.ts', line: 3, severity: 'warning', message: 'Check b.' }]);
    const { repo, env, model } = await setUp((_request, index) => (index % 2 === 0 ? warning : { text: 'Reviewed.' }));
    const diff = execFileSync('git', ['diff', 'HEAD~1...HEAD'], { cwd: repo, encoding: 'utf8' });

    const start = (failOn: string) => startScript(script, ['--cli', 'claude', '--model', model, '--diff', '-', '--fail-on', failOn, '--summary', join(repo, `${failOn}.md`)], { cwd: repo, env, input: diff }).done;
    const passed = await start('error');
    expect(passed.code).toBe(0);
    expect(passed.stdout).toBe('::warning file=src/app.ts,line=3,title=AI review%3A warning::Check b.\n');
    expect(await readFile(join(repo, 'error.md'), 'utf8')).toContain('**Passed**: nothing at or above `error`.');

    const failed = await start('warning');
    expect(failed.code).toBe(1);
    expect(await readFile(join(repo, 'warning.md'), 'utf8')).toContain('**Failed**: 1 finding at or above `warning`.');
  });

  it('exits 2 when the review cannot run, with the reason', async () => {
    const result = await review(await setUp([{ kind: 'error', status: 401, message: 'invalid x-api-key' }], { retries: 0 }), '--base', 'HEAD~1');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/review: claude could not finish the review \(error\)/);
    expect(result.stdout).toBe('');
  });
});
