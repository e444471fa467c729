#!/usr/bin/env node
// A scriptable stand-in for an agent CLI, used only by the core's tests (its output is made up and
// claims to be no real CLI's). The script is a JSON array of steps in FAKE_CLI_SCRIPT.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

if (process.argv.includes('--version')) {
  process.stdout.write(`fake-cli ${process.env.FAKE_CLI_VERSION ?? '1.2.0'}\n`);
  process.exit(0);
}
if (process.env.FAKE_CLI_MARKER) writeFileSync(process.env.FAKE_CLI_MARKER, String(process.pid));

// { firstRunOnly: { flag, steps } }: its steps run only while the flag file does not exist yet (the
// first run of a script creates it), so a retried or re-run job behaves differently the second time.
const steps = JSON.parse(process.env.FAKE_CLI_SCRIPT ?? '[]').flatMap((step) => {
  if (!('firstRunOnly' in step)) return [step];
  if (existsSync(step.firstRunOnly.flag)) return [];
  writeFileSync(step.firstRunOnly.flag, String(process.pid));
  return step.firstRunOnly.steps;
});
const write = (stream, data) => new Promise((resolve) => (stream.write(data) ? resolve() : stream.once('drain', resolve)));
const line = (value) => `${typeof value === 'string' ? value : JSON.stringify(value)}\n`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The argument after `flag`, when given. */
const argAfter = (flag) => {
  const at = process.argv.indexOf(flag);
  return at < 0 ? undefined : process.argv[at + 1];
};

// { sessionTurn: {} }: a turn of a session kept in $FAKE_CLI_HOME/sessions/<id>.json (the prompts so far),
// new, --resume <id> or --fork <id>; answers with every prompt of the session, so a test sees the history.
async function sessionTurn() {
  const dir = join(process.env.FAKE_CLI_HOME ?? '.', 'sessions');
  const from = argAfter('--resume') ?? argAfter('--fork');
  const file = (id) => join(dir, `${id}.json`);
  if (from !== undefined && !existsSync(file(from))) {
    await write(process.stdout, line({ type: 'error', code: 'invalid_options', message: `no session ${from} in ${dir}`, fatal: true }));
    process.exit(1);
  }
  const history = from === undefined ? [] : JSON.parse(readFileSync(file(from), 'utf8'));
  const id = argAfter('--resume') ?? randomUUID();
  const prompts = [...history, await readStdin()];
  mkdirSync(dir, { recursive: true });
  writeFileSync(file(id), JSON.stringify(prompts));
  await write(process.stdout, line({ type: 'init', sessionId: id }));
  await write(process.stdout, line({ type: 'done', text: prompts.join(' | '), sessionId: id }));
}

for (const step of steps) {
  if ('out' in step) await write(process.stdout, line(step.out));
  else if ('err' in step) await write(process.stderr, line(step.err));
  else if ('rawHex' in step) await write(process.stdout, Buffer.from(step.rawHex, 'hex'));
  else if ('sleep' in step) await sleep(step.sleep);
  else if ('stamp' in step) await write(process.stdout, line({ type: 'message', text: `written by ${Date.now()}` }));
  else if ('sessionTurn' in step) await sessionTurn();
  else if ('echoStdin' in step) await write(process.stdout, line({ type: 'stdin', text: await readStdin() }));
  else if ('usageFromPrompt' in step) {
    // Reports the prompt's number as a running total, the way CLIs with session totals do.
    const total = Number(await readStdin());
    await write(process.stdout, line({ type: 'usage', usage: { inputTokens: total, cachedInputTokens: 0, outputTokens: total / 10, reasoningTokens: 0 } }));
  } else if ('echoArgs' in step) await write(process.stdout, line({ type: 'args', args: process.argv.slice(2) }));
  else if ('echoSchema' in step) {
    // The JSON Schema the adapter wrote for `--schema`, as the CLI would read it.
    const at = process.argv.indexOf('--schema');
    await write(process.stdout, line({ type: 'schema', schema: at < 0 ? null : JSON.parse(readFileSync(process.argv[at + 1], 'utf8')) }));
  }
  else if ('echoEnv' in step) await write(process.stdout, line({ type: 'env', env: Object.fromEntries(step.echoEnv.map((name) => [name, process.env[name] ?? null])) }));
  else if ('ignoreSignals' in step) for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});
  else if ('grandchild' in step) {
    // A long-lived grandchild in the same process group; with holdStdout it keeps our stdout open;
    // with ownSession it escapes the group, as tool commands of some CLIs do.
    const child = spawn('sleep', ['1000'], {
      stdio: step.grandchild.holdStdout ? ['ignore', 'inherit', 'inherit'] : 'ignore',
      detached: Boolean(step.grandchild.ownSession),
    });
    child.unref();
    await write(process.stdout, line({ type: 'grandchild', pid: child.pid }));
  } else if ('writingGrandchild' in step) {
    // A grandchild in a session of its own that keeps writing to our stdout for a while after we exit.
    const { lines, everyMs } = step.writingGrandchild;
    const program = `let i = 0; const t = setInterval(() => { process.stdout.write(JSON.stringify({ type: 'message', text: 'late ' + i }) + '\\n'); if (++i === ${lines}) clearInterval(t); }, ${everyMs});`;
    spawn(process.execPath, ['-e', program], { stdio: ['ignore', 'inherit', 'ignore'], detached: true }).unref();
  } else if ('bigLine' in step) {
    const chunk = 'x'.repeat(64 * 1024);
    await write(process.stdout, '{"type":"big","pad":"');
    for (let sent = 0; sent < step.bigLine; sent += chunk.length) await write(process.stdout, chunk);
    await write(process.stdout, '"}\n');
  } else if ('lines' in step) {
    for (let i = 0; i < step.lines; i += 1) await write(process.stdout, line({ type: 'message', text: `line ${i}` }));
  } else if ('hang' in step) {
    setInterval(() => {}, 1 << 30);
    await new Promise(() => {});
  } else if ('kill' in step) {
    process.kill(process.pid, step.kill);
    await sleep(10_000);
  } else if ('exit' in step) {
    process.exit(step.exit);
  }
}
