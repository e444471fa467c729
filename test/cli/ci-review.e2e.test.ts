// The CI review recipe (examples/ci-review/review.ts) end to end: a real git repository, the real
// claude binary against the fake Anthropic server, and what GitHub Actions would see.
import { execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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

  it('with GITHUB_TOKEN posts a pull-request review with inline comments on changed lines; a re-run updates it', async () => {
    const github = await fakeGitHub();
    const findings = [
      { file: 'src/app.ts', line: 3, severity: 'error', message: 'Division by zero when b is 0.' },
      { file: 'src/other.ts', line: 99, severity: 'warning', message: 'Not in this diff.' },
    ];
    const setup = await setUp((_request, index) => (index % 2 === 0 ? structured(findings) : { text: 'Reviewed.' }));
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: setup.repo, encoding: 'utf8' }).trim();
    const event = join(setup.repo, '..', 'event.json');
    await writeFile(event, JSON.stringify({ pull_request: { number: 7, head: { sha: head } } }));
    const env = { ...setup.env, GITHUB_TOKEN: 'ghs_fake_token', GITHUB_API_URL: github.url, GITHUB_REPOSITORY: 'octo/repo', GITHUB_EVENT_PATH: event };
    const reviewOnce = () => startScript(script, ['--cli', 'claude', '--model', setup.model, '--base', 'HEAD~1'], { cwd: setup.repo, env }).done;

    const first = await reviewOnce();
    expect(first.stderr).toContain('review: posted as review 1 on pull request #7');
    expect(first.code).toBe(1);
    // The annotations stay.
    expect(first.stdout).toContain('::error file=src/app.ts,line=3');
    const created = github.requests.find((request) => request.method === 'POST' && request.path === '/repos/octo/repo/pulls/7/reviews');
    expect(created?.authorization).toBe('Bearer ghs_fake_token');
    expect(created?.body).toMatchObject({ commit_id: head, event: 'COMMENT', comments: [{ path: 'src/app.ts', line: 3, side: 'RIGHT' }] });
    const body = created!.body as { body: string; comments: Array<{ body: string }> };
    expect(body.comments[0]!.body).toContain('Division by zero when b is 0.');
    expect(body.body).toContain('Adds a ratio.');
    expect(body.body).toContain('`src/other.ts:99`: Not in this diff.');

    const second = await reviewOnce();
    expect(second.stderr).toContain('review: posted as review 1 on pull request #7');
    expect(github.reviews).toHaveLength(1);
    expect(github.requests.map((request) => `${request.method} ${request.path}`).slice(2)).toEqual([
      'GET /repos/octo/repo/pulls/7/reviews?per_page=100',
      'PUT /repos/octo/repo/pulls/7/reviews/1',
      'GET /repos/octo/repo/pulls/7/comments?per_page=100',
      'DELETE /repos/octo/repo/pulls/comments/1',
      'POST /repos/octo/repo/pulls/7/comments',
    ]);
    expect(github.comments.map((comment) => [comment.id, comment.path, comment.line])).toEqual([[2, 'src/app.ts', 3]]);
    expect(github.requests.at(-1)?.body).toMatchObject({ commit_id: head, path: 'src/app.ts', line: 3, side: 'RIGHT' });
  });
});

interface GitHubRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

/** The review endpoints of the GitHub REST API the script calls, in memory, on 127.0.0.1. */
async function fakeGitHub(): Promise<{ url: string; requests: GitHubRequest[]; reviews: Array<{ id: number; body: string }>; comments: Array<{ id: number; path: string; line: number; body: string }> }> {
  const requests: GitHubRequest[] = [];
  const reviews: Array<{ id: number; body: string }> = [];
  const comments: Array<{ id: number; path: string; line: number; body: string }> = [];
  let nextComment = 1;
  const reply = (response: ServerResponse, status: number, value?: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(value === undefined ? undefined : JSON.stringify(value));
  };
  const handle = (request: IncomingMessage, response: ServerResponse, text: string) => {
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    const path = request.url ?? '';
    requests.push({ method: request.method ?? '', path, authorization: request.headers.authorization, body });
    const route = `${request.method} ${path.replace(/\?.*/, '')}`;
    const addComment = (comment: Record<string, unknown>) => comments.push({ id: nextComment++, path: String(comment.path), line: Number(comment.line), body: String(comment.body) });
    if (route === 'GET /repos/octo/repo/pulls/7/reviews') return reply(response, 200, reviews);
    if (route === 'GET /repos/octo/repo/pulls/7/comments') return reply(response, 200, comments);
    if (route === 'POST /repos/octo/repo/pulls/7/reviews') {
      const review = { id: reviews.length + 1, body: String(body?.body) };
      reviews.push(review);
      for (const comment of (body?.comments as Array<Record<string, unknown>>) ?? []) addComment(comment);
      return reply(response, 200, review);
    }
    const put = /^PUT \/repos\/octo\/repo\/pulls\/7\/reviews\/(\d+)$/.exec(route);
    const review = put ? reviews.find((candidate) => candidate.id === Number(put[1])) : undefined;
    if (review) {
      review.body = String(body?.body);
      return reply(response, 200, review);
    }
    const remove = /^DELETE \/repos\/octo\/repo\/pulls\/comments\/(\d+)$/.exec(route);
    const index = remove ? comments.findIndex((comment) => comment.id === Number(remove[1])) : -1;
    if (index >= 0) {
      comments.splice(index, 1);
      return reply(response, 204);
    }
    if (route === 'POST /repos/octo/repo/pulls/7/comments' && body) {
      addComment(body);
      return reply(response, 201, comments.at(-1));
    }
    reply(response, 404, { message: 'Not Found' });
  };
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => handle(request, response, text));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanupAfterTest(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, reviews, comments };
}
