// A live CLI that takes the interrupt but never ends the turn must not hold it: the turn ends as
// cancelled once the wait for it is over, and nothing of the CLI is left. The stand-in speaks
// Claude's live protocol just far enough: an init line per user message, an answer to the interrupt,
// and never a `result`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { createCoder, LiveSessionClosedError } from '../../src/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { isGroupAlive } from '../support/processes.js';

const standIn = `
if (process.argv[2] === '--version') { console.log('2.1.332 (Claude Code)'); process.exit(0); }
const out = (record) => process.stdout.write(JSON.stringify(record) + '\\n');
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.type === 'user') out({ type: 'system', subtype: 'init', session_id: 'stand-in', model: 'stand-in', cwd: process.cwd(), tools: [] });
  if (message.type === 'control_request' && message.request.subtype === 'interrupt') {
    out({ type: 'control_response', response: { subtype: 'success', request_id: message.request_id, response: {} } });
  }
});
`;

it('an interrupt the CLI answers but never acts on ends the turn as cancelled, and stops the CLI', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'coderline-live-interrupt-'));
  cleanupAfterTest(() => rm(dir, { recursive: true, force: true }));
  const executablePath = join(dir, 'claude');
  await writeFile(executablePath, `#!${process.execPath}\n${standIn}`, { mode: 0o755 });
  const coder = createCoder(claudeAdapter, { executablePath, workingDirectory: dir, extraEnv: { ANTHROPIC_API_KEY: 'unused' } });
  cleanupAfterTest(() => coder.close());
  // The stall timeout is also the wait for the interrupt to end the turn; it counts from send(), so it
  // covers the stand-in's start, which a loaded machine can stretch past a second or two.
  const live = await coder.open({ stallTimeoutMs: 5_000 });
  const turn = live.send('Hang on.');
  for await (const event of turn) if (event.type === 'init') await live.interrupt();
  expect(await turn.result).toMatchObject({ status: 'cancelled' });
  expect(isGroupAlive(live.pid!)).toBe(false);
  await expect(live.send('Still there?').result).rejects.toBeInstanceOf(LiveSessionClosedError);
});
