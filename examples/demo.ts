// `npm run demo`: the main job end to end, before any credentials. The pinned `claude` binary runs a
// prompt in a scratch directory, calls its Bash tool, and answers; every event is printed as it
// happens. Without ANTHROPIC_API_KEY the model is the embedded fake of `coderline/testing` on
// 127.0.0.1 (a scripted answer with a tool call): nothing leaves the machine. With the key set, the
// same run goes to the real API.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// Only the package's public entries (`coderline` and `coderline/testing`), as an app would import them.
import { start, type CoderStreamEvent, type RunResult, type SharedStartOpts } from '../src/index.js';
import { startFakeModel, type FakeModel } from '../src/testing/index.js';

const prompt = 'List the files in this directory with `ls`, then tell me in one sentence what is there.';

/** The fake model's side of the conversation: a tool call, then the answer. */
const script = [
  { text: 'I will look at the directory first.', toolCalls: [{ name: 'Bash', input: { command: 'ls', description: 'List the files' } }] },
  { text: 'The directory holds notes.txt, a one-line note for this demo.' },
];

/** One line for the events a person wants to follow: the start, tool calls and what they returned. */
function describe(event: CoderStreamEvent<string>): string | undefined {
  switch (event.type) {
    case 'init':
      return [`started ${event.provider}`, event.model && `model ${event.model}`].filter(Boolean).join(' · ');
    case 'tool_use': {
      const command = (event.input as { command?: unknown } | undefined)?.command;
      return `tool ${event.name}${typeof command === 'string' ? `: ${command}` : ''}`;
    }
    // The tool's output too: the demo shows that the CLI really ran the command.
    case 'tool_result':
      return `tool ${event.name ?? event.id} returned: ${JSON.stringify(event.output)}`;
    case 'message':
      return event.delta ? undefined : `says: ${event.text}`;
    default:
      return undefined;
  }
}

function summary(result: RunResult<unknown, string>): string {
  const seconds = `${(result.durationMs / 1000).toFixed(1)}s`;
  const tokens = `${result.usage.inputTokens} in / ${result.usage.outputTokens} out tokens`;
  return result.status === 'success' ? `done in ${seconds} · ${tokens}` : `${result.status} after ${seconds} · ${tokens}\n${result.error?.message ?? ''}`;
}

async function main(): Promise<number> {
  const workDir = await mkdtemp(join(tmpdir(), 'coderline-demo-'));
  await writeFile(join(workDir, 'notes.txt'), 'A note for the coderline demo.\n');
  let model: FakeModel | undefined;
  try {
    const real = Boolean(process.env.ANTHROPIC_API_KEY);
    let options: SharedStartOpts = {};
    if (!real) {
      model = await startFakeModel({ api: 'anthropic', script });
      options = await model.env('claude');
    }
    console.error(real ? 'demo: claude against the real API (ANTHROPIC_API_KEY is set)' : `demo: claude against the fake model at ${model!.url} (offline; set ANTHROPIC_API_KEY for the real API)`);

    await using session = start('claude', { ...options, workingDirectory: workDir, permissionPolicy: { allow: ['Bash(ls)', 'Bash(ls:*)'] } });
    const stream = session.stream(prompt);
    for await (const event of stream) {
      const line = describe(event);
      if (line) console.error(`  [${event.type}] ${line}`);
    }
    const result = await stream.result;
    console.error(summary(result));
    if (result.status !== 'success') return 1;
    console.log(result.text);
    return 0;
  } finally {
    await model?.close();
    await rm(workDir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
