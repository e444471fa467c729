// Records what each real CLI reports when its model API answers 429 with `retry-after` (seconds) and
// `retry-after-ms` headers, into fixtures/<cli>/<version>/retry-after/<scenario>.jsonl (stdout as printed)
// and .meta.json (what coderline made of it: status, error code and message, the CLI's stderr tail, exit
// code; the model requests and the gaps between them, i.e. whether the CLI waited itself). The headers
// differ (4 s vs 2.5 s) so a fixture shows which one a CLI read; a third scenario puts the delay in the
// error message instead. Runs through coderline's run(), the path a queue worker takes.
// `npm run record -- --retry-after [cli ...]`.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { run, type ProviderName, type SharedStartOpts } from '../../src/index.js';
import { fakeApiOf, startFakeModel, type ScriptStep } from '../../src/testing/index.js';
import { pathWithNode22 } from '../../src/testing/pi-env.js';

const RETRY_AFTER_SECONDS = 4;
const RETRY_AFTER_MS = 2_500;
const limited: ScriptStep = { kind: 'error', status: 429, message: 'Rate limit reached', retryAfterSeconds: RETRY_AFTER_SECONDS, retryAfterMs: RETRY_AFTER_MS };

interface Scenario {
  name: string;
  what: string;
  script: ScriptStep[];
  /** The CLI's own retries of a failed model call (where the test env can set them). */
  retries: number;
}

const scenarios: Scenario[] = [
  { name: 'rate-limit-retry-after', what: `429 with retry-after: ${RETRY_AFTER_SECONDS} and retry-after-ms: ${RETRY_AFTER_MS} on every request; the CLI's own retries 0 where it has the setting`, script: [limited], retries: 0 },
  {
    name: 'rate-limit-try-again-in',
    what: "429 whose error message says when to retry as OpenAI's rate-limit errors do (a Go-style duration), no headers; the CLI's own retries 0 where it has the setting",
    script: [{ kind: 'error', status: 429, message: 'Rate limit reached for requests. Please try again in 1m2.5s.' }],
    retries: 0,
  },
  { name: 'rate-limit-retry-after-then-ok', what: 'the same 429 once, then an answer; the CLI may retry once: the gap shows whether it waited the retry-after', script: [limited, { text: 'Answered after the rate limit.' }], retries: 1 },
];

async function recordScenario(cli: ProviderName, scenario: Scenario): Promise<void> {
  const fake = await startFakeModel({ api: fakeApiOf[cli], script: scenario.script });
  try {
    const env = await fake.env(cli, { retries: scenario.retries });
    const opts: SharedStartOpts = cli === 'pi' ? { ...env, extraEnv: { ...env.extraEnv, PATH: pathWithNode22() } } : env;
    const lines: string[] = [];
    const result = await run(cli, 'Please answer.', { ...opts, onRawLine: (line) => lines.push(line), signal: AbortSignal.timeout(120_000) });
    if (!result.cliVersion) throw new Error(`${cli} reported no version`);
    const dir = join('fixtures', cli, result.cliVersion, 'retry-after');
    await mkdir(dir, { recursive: true });
    const times = fake.requests.map((request) => request.receivedAt);
    const meta = {
      scenario: scenario.name,
      what: scenario.what,
      answers: scenario.script,
      exitCode: result.exitCode ?? null,
      status: result.status,
      text: result.text,
      error: result.error ? { code: result.error.code, message: result.error.message } : null,
      stderrTail: (result.error as { stderrTail?: string } | undefined)?.stderrTail?.split('\n') ?? null,
      modelRequests: times.length,
      requestGapsMs: times.slice(1).map((time, i) => time - times[i]!),
    };
    await writeFile(join(dir, `${scenario.name}.jsonl`), lines.map((line) => `${line}\n`).join(''));
    await writeFile(join(dir, `${scenario.name}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
    console.error(`  ${cli} ${result.cliVersion} ${scenario.name}: ${result.status} ${result.error?.code ?? ''}, ${times.length} model requests, gaps ${meta.requestGapsMs.join(', ')} ms`);
  } finally {
    await fake.close();
  }
}

export async function recordRetryAfter(cli: ProviderName): Promise<void> {
  for (const scenario of scenarios) await recordScenario(cli, scenario);
}
