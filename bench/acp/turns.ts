// Turn latency over ACP: the same prompt turns on the real `copilot --acp` (the pinned 1.0.102)
// against the fake chat-completions server of src/testing, driven by coderline's live session (its
// JSON-RPC channel and the shared ACP client) and by the official @agentclientprotocol/sdk client
// over the child's stdio. Rounds alternate the two; each turn is timed from the request to its answer.
// Prints one JSON line.   node --import tsx bench/acp/turns.ts
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { client, ndJsonStream } from '@agentclientprotocol/sdk';
import { createCoder } from '../../src/index.js';
import { copilotBinary } from '../../src/testing/copilot-env.js';
import { startFakeModel } from '../../src/testing/index.js';

const TURNS = Number(process.env.BENCH_ACP_TURNS ?? 10);
const ROUNDS = Number(process.env.BENCH_ACP_ROUNDS ?? 3);
const model = await startFakeModel({ api: 'openai-chat', script: () => ({ text: 'ok' }) });

async function coderlineTurns(workDir: string): Promise<number[]> {
  const coder = createCoder('copilot', { ...(await model.env('copilot')), executablePath: copilotBinary, workingDirectory: workDir });
  const live = await coder.open();
  const times: number[] = [];
  for (let turn = 0; turn < TURNS; turn += 1) {
    const started = performance.now();
    await live.send(`turn ${turn + 1}`).result;
    times.push(performance.now() - started);
  }
  await live.close();
  await coder.close();
  return times;
}

async function sdkTurns(workDir: string): Promise<number[]> {
  const { extraEnv = {}, unsetEnv = [] } = await model.env('copilot');
  const env: Record<string, string | undefined> = { ...process.env, ...extraEnv };
  for (const name of unsetEnv) delete env[name];
  const child = spawn(copilotBinary, ['--acp'], { cwd: workDir, env, stdio: ['pipe', 'pipe', 'ignore'] });
  const stream = ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
  const times = await client()
    .onNotification('session/update', () => {})
    .connectWith(stream, async (agent) => {
      await agent.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });
      const { sessionId } = await agent.request('session/new', { cwd: workDir, mcpServers: [] });
      const each: number[] = [];
      for (let turn = 0; turn < TURNS; turn += 1) {
        const started = performance.now();
        await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: `turn ${turn + 1}` }] });
        each.push(performance.now() - started);
      }
      return each;
    });
  child.stdin.end();
  await new Promise((done) => child.once('close', done));
  return times;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const report = { turns: TURNS, rounds: ROUNDS, coderlineMs: [] as number[], sdkMs: [] as number[] };
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [key, drive] of [['coderlineMs', coderlineTurns], ['sdkMs', sdkTurns]] as const) {
    const workDir = mkdtempSync(join(tmpdir(), 'coderline-bench-acp-'));
    try {
      // The first turn of each process warms the CLI's model client: it is kept apart.
      report[key].push(...(await drive(workDir)).slice(1));
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  }
}
await model.close();
console.log(JSON.stringify({ ...report, coderlineMedianMs: median(report.coderlineMs), sdkMedianMs: median(report.sdkMs) }));
