// ONE canUseTool policy, written against the portable tool facts only, on live sessions of all four
// real CLIs (fake models on 127.0.0.1): it allows a read and denies a shell command that touches a
// marker. Each CLI asks about both calls, gets the same decisions, and the user sees the same outcome:
// the denied command did not run (its file is absent) and the read's content reached the model.
// The file read lies outside the working directory: Claude reads inside it unasked. Copilot (1.0.102)
// asks about no read at all, outside the working directory neither (adapters.md, canUseTool): its
// read runs unasked, and only its shell command comes to the policy. Codex has no read tool: its read
// is a shell command (`cat`), which the policy allows as it touches no marker.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProviderName, ToolKind } from '../../src/events.js';
import type { AdapterSpec, CanUseTool, PermissionEvent } from '../../src/index.js';
import { builtInAdapters } from '../../src/registry.js';
import type { ScriptStep } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { fakeForLive, openLive } from '../support/live.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';

const MARKER = 'coderline-marker';
const NOTES = 'the notes say quince';

/** The policy a host writes once: by kind, never by a CLI's tool name. */
const policy: CanUseTool = ({ tool }) => {
  if (tool?.kind === 'shell' && tool.command?.includes(MARKER)) return { behavior: 'deny', message: 'The marker is off limits.' };
  if (tool?.kind === 'read' || tool?.kind === 'shell') return { behavior: 'allow' };
  return { behavior: 'deny', message: 'Not allowed here.' };
};

/** Each CLI's own calls of a read of `file` and of a shell command. */
const calls: Record<Exclude<ProviderName, 'gemini' | 'opencode'>, { read(file: string): ScriptStep; shell(command: string): ScriptStep; readKind: ToolKind; readAsked: boolean }> = {
  claude: {
    read: (file) => ({ toolCalls: [{ name: 'Read', input: { file_path: file }, id: 'call_read' }] }),
    shell: (command) => ({ toolCalls: [{ name: 'Bash', input: { command, description: 'touch it' }, id: 'call_shell' }] }),
    readKind: 'read',
    readAsked: true,
  },
  codex: {
    read: (file) => ({ toolCalls: [{ name: 'exec_command', input: { cmd: `cat ${file}` }, id: 'call_read' }] }),
    shell: (command) => ({ toolCalls: [{ name: 'exec_command', input: { cmd: command }, id: 'call_shell' }] }),
    readKind: 'shell',
    readAsked: true,
  },
  copilot: {
    read: (file) => ({ toolCalls: [{ name: 'view', input: { path: file }, id: 'call_read' }] }),
    shell: (command) => ({ toolCalls: [{ name: 'bash', input: { command, description: 'touch it' }, id: 'call_shell' }] }),
    readKind: 'read',
    readAsked: false,
  },
  pi: {
    read: (file) => ({ toolCalls: [{ name: 'read', input: { path: file }, id: 'call_read' }] }),
    shell: (command) => ({ toolCalls: [{ name: 'bash', input: { command }, id: 'call_shell' }] }),
    readKind: 'read',
    readAsked: true,
  },
};

describe('one kind-based canUseTool policy on every CLI (live, real binaries)', () => {
  it.each(['claude', 'codex', 'copilot', 'pi'] as const)('%s: the read is allowed and reaches the model, the marked command is denied and does not run', async (cli) => {
    const outside = await mkdtemp(join(tmpdir(), 'coderline-kinds-read-'));
    cleanupAfterTest(() => rm(outside, { recursive: true, force: true }));
    const notes = join(outside, 'notes.txt');
    await writeFile(notes, `${NOTES}\n`);
    const touched = (workDir: string) => join(workDir, `${MARKER}.txt`);
    let proof = '';
    const { model, opts, workDir } = await fakeForLive(cli, (_request, index) =>
      index === 0 ? calls[cli].read(notes) : index === 1 ? calls[cli].shell(`touch ${proof}`) : { text: 'Done.' },
    );
    proof = touched(workDir);
    const live = await openLive(builtInAdapters[cli] as AdapterSpec<string>, withPinnedRuntime(cli, { ...opts, canUseTool: policy }));
    const result = await live.send('Read the notes, then touch the marker.', { collectEvents: true }).result;

    const decisions = (result.events ?? []).filter((event): event is PermissionEvent<string> => event.type === 'permission' && event.phase === 'decision');
    expect(decisions.map((event) => [event.tool?.kind, event.decision])).toEqual([
      ...(calls[cli].readAsked ? [[calls[cli].readKind, 'allow']] : []),
      ['shell', 'deny'],
    ]);
    expect(decisions.at(-1)?.tool?.command).toContain(proof);
    expect(existsSync(proof)).toBe(false);
    expect(JSON.stringify(model.requests[1]?.body)).toContain(NOTES);
    // The events say the same: the read's result and the shell call carry the facts the policy saw.
    const toolResult = result.events?.find((event) => event.type === 'tool_result' && event.tool?.kind === calls[cli].readKind);
    expect(JSON.stringify(toolResult)).toContain(NOTES);
  });
});
