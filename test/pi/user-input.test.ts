// onUserInput with the real `pi --mode rpc` (on the pinned Node 22) against the fake chat-completions
// server: an extension's select and confirm dialogs answered by the callback, and declined.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { piAdapter } from '../../src/adapters/pi/index.js';
import type { OnUserInput, UserInputRequest } from '../../src/index.js';
import { contentText, fakeForLive, openLive, toolMessage } from '../support/live.js';
import { ofType } from '../support/events.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';

/** An extension of the user's (pi's agent dir): before each tool call it asks two dialogs, and blocks the call unless both say go. */
const askingExtension = `export default function (pi) {
  pi.on('tool_call', async (_event, ctx) => {
    const choice = await ctx.ui.select('Run this command?', ['Run', 'Skip']);
    const sure = await ctx.ui.confirm('Really?', 'It writes a file.');
    if (choice === 'Run' && sure) return undefined;
    return { block: true, reason: 'The user chose ' + String(choice) + ' / ' + String(sure) + '.' };
  });
}
`;

async function turnWithDialogs(onUserInput: OnUserInput) {
  const { model, opts, workDir } = await fakeForLive('pi', [{ toolCalls: [{ name: 'bash', input: { command: 'touch ran.txt' }, id: 'call_dialog_1' }] }, { text: 'Done.' }], 120_000);
  const agentDir = opts.extraEnv?.PI_CODING_AGENT_DIR;
  if (!agentDir) throw new Error('the fake env names no PI_CODING_AGENT_DIR');
  await mkdir(join(agentDir, 'extensions'), { recursive: true });
  await writeFile(join(agentDir, 'extensions', 'ask.ts'), askingExtension);
  const live = await openLive(piAdapter, withPinnedRuntime('pi', { ...opts, onUserInput }));
  const result = await live.send('Make the file.', { collectEvents: true }).result;
  return { result, ran: existsSync(join(workDir, 'ran.txt')), toolText: contentText(toolMessage(model.requests[1])?.content) };
}

describe('pi onUserInput: extension dialogs (real binary, fake model)', () => {
  it('select and confirm reach the callback as dialog questions; the answers are what the extension gets', async () => {
    const asked: UserInputRequest[] = [];
    const { result, ran } = await turnWithDialogs((request) => (asked.push(request), { answers: { value: request.questions[0]!.options![0] } }));
    expect(result).toMatchObject({ status: 'success', text: 'Done.' });
    expect(asked).toEqual([
      { source: 'dialog', questions: [{ id: 'value', text: 'Run this command?', options: ['Run', 'Skip'] }] },
      { source: 'dialog', questions: [{ id: 'value', text: 'Really?\n\nIt writes a file.', options: ['Yes', 'No'] }] },
    ]);
    expect(ran).toBe(true);
    expect(ofType(result.events, 'user_input').map((event) => [event.phase, event.answers])).toEqual([
      ['request', undefined], ['answer', { value: 'Run' }], ['request', undefined], ['answer', { value: 'Yes' }],
    ]);
  });

  it('a decline is a cancelled dialog: the extension reads undefined / false and blocks the call', async () => {
    const { ran, toolText } = await turnWithDialogs(() => ({ decline: true }));
    expect(ran).toBe(false);
    expect(toolText).toContain('The user chose undefined / false.');
  });
});
