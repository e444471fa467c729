// Reviews a pull request's diff with any of the four agent CLIs, read-only, and fails the job on
// blocking findings. Usage (see docs/recipes.md):
//   npx tsx examples/ci-review/review.ts --cli claude --base origin/main
// With GITHUB_TOKEN set it also posts a pull-request review with inline comments (github.ts);
// the annotations and the summary come either way.
// Exit codes: 0 passed, 1 blocking findings, 2 the review could not run.
import { execFileSync } from 'node:child_process';
import { appendFile, readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { parseArgs } from 'node:util';
// In your own project: import { run, type ProviderName } from 'coderline';
import { run, type ProviderName } from '../../src/index.js';
import { postReview, type PullRequestTarget } from './github.js';
import { annotations, blockingFindings, markdownSummary, severities, reviewSchema, type Severity } from './report.js';

const providers: readonly ProviderName[] = ['claude', 'codex', 'copilot', 'pi'];

function fail(message: string): never {
  process.stderr.write(`review: ${message}\n`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    cli: { type: 'string', default: 'claude' },
    model: { type: 'string' },
    base: { type: 'string' },
    diff: { type: 'string' },
    'fail-on': { type: 'string', default: 'error' },
    summary: { type: 'string' },
    'max-diff-bytes': { type: 'string', default: '200000' },
    'timeout-minutes': { type: 'string', default: '15' },
    pr: { type: 'string' },
  },
  strict: true,
});

const cli = values.cli as ProviderName;
if (!providers.includes(cli)) fail(`--cli must be one of ${providers.join(', ')}`);
const failOn = values['fail-on'] as Severity;
if (!severities.includes(failOn)) fail(`--fail-on must be one of ${severities.join(', ')}`);
const maxBytes = Number(values['max-diff-bytes']);
const timeoutMinutes = Number(values['timeout-minutes']);
if (!(maxBytes > 0) || !(timeoutMinutes > 0)) fail('--max-diff-bytes and --timeout-minutes take positive numbers');

/** The diff under review: a file (`-` for stdin), or `git diff BASE...HEAD` (the PR's own changes). */
async function readDiff(): Promise<string> {
  if (values.diff === '-') return text(process.stdin);
  if (values.diff !== undefined) return readFile(values.diff, 'utf8');
  const base = values.base ?? (process.env.GITHUB_BASE_REF ? `origin/${process.env.GITHUB_BASE_REF}` : undefined);
  if (base === undefined) fail('say what to review: --base REF (e.g. origin/main) or --diff FILE');
  return execFileSync('git', ['diff', '--unified=5', `${base}...HEAD`], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

/** Where to post the review, when a token is given: the pull request of the workflow's event unless --pr. */
async function pullRequestTarget(): Promise<PullRequestTarget | undefined> {
  const token = process.env.GITHUB_TOKEN;
  if (!token) return undefined;
  const event = process.env.GITHUB_EVENT_PATH ? (JSON.parse(await readFile(process.env.GITHUB_EVENT_PATH, 'utf8')) as { pull_request?: { number?: number; head?: { sha?: string } } }) : {};
  const pullNumber = Number(values.pr ?? event.pull_request?.number);
  const repository = process.env.GITHUB_REPOSITORY;
  if (!(pullNumber > 0) || !repository) fail('GITHUB_TOKEN is set, so a review is posted: it needs GITHUB_REPOSITORY and the pull request (the event, or --pr N)');
  const commitId = event.pull_request?.head?.sha ?? execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  return { apiUrl: process.env.GITHUB_API_URL ?? 'https://api.github.com', repository, pullNumber, commitId, token };
}

/** Returns the exit code; setting it instead of calling process.exit lets stdout drain first. */
async function review(): Promise<number> {
  const target = await pullRequestTarget();
  let diff = await readDiff();
  if (diff.trim() === '') {
    process.stdout.write('review: the diff is empty, nothing to review\n');
    return 0;
  }
  const truncated = Buffer.byteLength(diff) > maxBytes;
  if (truncated) diff = Buffer.from(diff).subarray(0, maxBytes).toString('utf8');

  const prompt = [
    'Review this pull request diff as a careful senior engineer.',
    'Report bugs, security problems, data loss, broken error handling and clear maintainability problems',
    'in the changed lines; do not report style preferences. You may read files in the repository for',
    'context, but do not change anything. Give each finding the file path as it appears in the diff and',
    'the line number in the new version of the file. If nothing is wrong, return an empty findings list.',
    ...(truncated ? [`The diff was cut at ${maxBytes} bytes; review what is there.`] : []),
    '',
    '<diff>',
    diff,
    '</diff>',
  ].join('\n');

  const result = await run(cli, prompt, {
    // Read-only on every CLI: Claude --permission-mode plan, Codex --sandbox read-only, Copilot
    // --mode plan, Pi with read-only tools.
    permissionPolicy: { mode: 'plan' },
    // The job's other secrets (deploy keys, cloud and registry tokens) stay out of reach of the
    // commands the model runs: the CLI gets PATH, HOME, locale, proxies and its own credentials only.
    inheritEnv: 'minimal',
    // The token that posts the review is the script's, never the agent's (Copilot would read it as a login).
    ...(target ? { unsetEnv: ['GITHUB_TOKEN'] } : {}),
    outputSchema: reviewSchema,
    ...(values.model ? { model: values.model } : {}),
    signal: AbortSignal.timeout(timeoutMinutes * 60_000),
    onEvent: (event) => {
      if (event.type === 'tool_use') process.stderr.write(`review: ${cli} uses ${event.name}\n`);
    },
  });

  if (result.status !== 'success' || result.output === undefined) {
    fail(`${cli} could not finish the review (${result.status}): ${result.error?.message ?? 'no output'}`);
  }

  const review = result.output;
  for (const line of annotations(review)) process.stdout.write(`${line}\n`);
  const summary = markdownSummary(review, cli, failOn);
  const summaryFile = values.summary ?? process.env.GITHUB_STEP_SUMMARY;
  if (summaryFile) await appendFile(summaryFile, summary);
  else process.stdout.write(summary);
  if (target) {
    const id = await postReview(target, review, review.summary, diff).catch((error: unknown) => fail(`could not post the review: ${error instanceof Error ? error.message : String(error)}`));
    process.stderr.write(`review: posted as review ${id} on pull request #${target.pullNumber}\n`);
  }

  return blockingFindings(review, failOn).length > 0 ? 1 : 0;
}

process.exitCode = await review();
