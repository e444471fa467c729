// The portable tool facts over every recorded fixture of each CLI's pinned version (one-shot and live):
// each tool_use names the kind this table expects for its CLI's tool name (a tool the table does not
// know fails: a new recording teaches it), each tool_result carries the facts of its tool_use, and
// the tool-kinds recordings (one call of each tool, scripts/record/<cli>.ts) give the exact facts.
import { describe, expect, it } from 'vitest';
import type { CoderStreamEvent, ToolFacts, ToolKind } from '../../src/events.js';
import * as replayApi from '../../src/replay/index.js';
import { replayCase, replayCases, type ReplayCase } from '../replay/cases.js';

const expectedKinds: Record<ReplayCase['cli'], Record<string, ToolKind>> = {
  claude: {
    Bash: 'shell', Read: 'read', Write: 'write', Edit: 'edit', MultiEdit: 'edit', NotebookEdit: 'edit', Glob: 'search', Grep: 'search', LS: 'list',
    WebFetch: 'fetch', WebSearch: 'web_search', Task: 'task', TodoWrite: 'plan', AskUserQuestion: 'ask', mcp__fake__echo: 'mcp', StructuredOutput: 'other',
    Agent: 'task', TaskCreate: 'plan', TaskUpdate: 'plan',
  },
  codex: { command_execution: 'shell', file_change: 'edit', web_search: 'web_search' },
  // Prompt mode names the tool; ACP (live) only its kind.
  copilot: { bash: 'shell', view: 'read', create: 'write', edit: 'edit', grep: 'search', glob: 'search', task: 'task', no_such_tool: 'other', execute: 'shell', sql: 'other', other: 'other' },
  pi: { bash: 'shell', read: 'read', write: 'write', edit: 'edit', grep: 'search', find: 'search', ls: 'list', no_such_tool: 'other' },
  // One-shot names the tool; ACP (live) only its kind. `invalid` is OpenCode's own name for a call it could not parse.
  opencode: { bash: 'shell', read: 'read', write: 'write', edit: 'edit', grep: 'search', glob: 'search', webfetch: 'fetch', task: 'task', todowrite: 'plan', invalid: 'other', execute: 'shell' },
};

function eventsOf(testCase: ReplayCase): CoderStreamEvent[] {
  const replayed = replayCase(replayApi, testCase) as CoderStreamEvent[] | CoderStreamEvent[][];
  return testCase.live ? (replayed as CoderStreamEvent[][]).flat() : (replayed as CoderStreamEvent[]);
}

const cases = replayCases();
const toolUses = (events: CoderStreamEvent[]) => events.filter((event) => event.type === 'tool_use');

describe('tool facts over the recorded fixtures', () => {
  it('the fixtures hold tool calls of every CLI (the table below is not vacuous)', () => {
    for (const cli of Object.keys(expectedKinds) as Array<ReplayCase['cli']>) {
      const seen = new Set(cases.filter((c) => c.cli === cli).flatMap((c) => toolUses(eventsOf(c)).map((event) => event.name)));
      expect([...seen].sort(), cli).toEqual(Object.keys(expectedKinds[cli]).sort());
    }
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s: every tool_use has its kind, every tool_result the facts of its use', (_name, testCase) => {
    const used = new Map<string, ToolFacts | undefined>();
    for (const event of eventsOf(testCase)) {
      if (event.type === 'tool_use') {
        expect(event.tool, event.name).toMatchObject({ kind: expectedKinds[testCase.cli][event.name], name: event.name });
        used.set(event.id, event.tool);
      } else if (event.type === 'tool_result' && used.has(event.id)) {
        expect(event.tool).toEqual(used.get(event.id));
      }
    }
  });
});

/** The facts of each tool use of a tool-kinds recording, by tool name. */
function factsIn(name: string): Record<string, ToolFacts | undefined> {
  const testCase = cases.find((c) => c.name === name);
  if (!testCase) throw new Error(`no fixture ${name}`);
  return Object.fromEntries(toolUses(eventsOf(testCase)).map((event) => [event.name, event.tool]));
}

describe('the facts of one call of each tool, as the CLIs print them', () => {
  it('claude 2.1.332', () => {
    const dir = '/tmp/coderline-kinds';
    expect(factsIn('claude/2.1.332/tool_kinds.jsonl')).toEqual({
      Bash: { kind: 'shell', name: 'Bash', command: 'echo kinds' },
      Read: { kind: 'read', name: 'Read', paths: [`${dir}/read.txt`] },
      Write: { kind: 'write', name: 'Write', paths: [`${dir}/write.txt`] },
      Edit: { kind: 'edit', name: 'Edit', paths: [`${dir}/edit.txt`] },
      MultiEdit: { kind: 'edit', name: 'MultiEdit', paths: [`${dir}/multi.txt`] },
      NotebookEdit: { kind: 'edit', name: 'NotebookEdit', paths: [`${dir}/book.ipynb`] },
      Glob: { kind: 'search', name: 'Glob', query: '**/*.ts', paths: [dir] },
      Grep: { kind: 'search', name: 'Grep', query: 'TODO', paths: [dir] },
      LS: { kind: 'list', name: 'LS', paths: [dir] },
      WebFetch: { kind: 'fetch', name: 'WebFetch', url: 'http://127.0.0.1:9/page' },
      WebSearch: { kind: 'web_search', name: 'WebSearch', query: 'coderline sdk' },
      Task: { kind: 'task', name: 'Task' },
      TodoWrite: { kind: 'plan', name: 'TodoWrite' },
      AskUserQuestion: { kind: 'ask', name: 'AskUserQuestion' },
      mcp__fake__echo: { kind: 'mcp', name: 'mcp__fake__echo', server: 'fake' },
    });
  });

  it('codex 0.171.0: the command with its shell wrapper, the patched file absolute', () => {
    const facts = factsIn('codex/0.171.0/tool-kinds.jsonl');
    expect(facts).toEqual({
      command_execution: { kind: 'shell', name: 'command_execution', command: "/bin/bash -lc 'echo kinds'" },
      file_change: { kind: 'edit', name: 'file_change', paths: [expect.stringMatching(/^\/.*\/hello\.txt$/)] },
      web_search: { kind: 'web_search', name: 'web_search', query: 'coderline sdk' },
    });
  });

  it('copilot 1.0.102', () => {
    const dir = '/tmp/coderline-kinds';
    expect(factsIn('copilot/1.0.102/tool-kinds.jsonl')).toEqual({
      bash: { kind: 'shell', name: 'bash', command: 'echo kinds' },
      view: { kind: 'read', name: 'view', paths: [`${dir}/read.txt`] },
      create: { kind: 'write', name: 'create', paths: [`${dir}/write.txt`] },
      edit: { kind: 'edit', name: 'edit', paths: [`${dir}/write.txt`] },
      grep: { kind: 'search', name: 'grep', query: 'TODO', paths: [dir] },
      glob: { kind: 'search', name: 'glob', query: '**/*.txt', paths: [dir] },
      task: { kind: 'task', name: 'task' },
    });
  });

  it('pi 1.6.0: paths as the model gave them', () => {
    expect(factsIn('pi/1.6.0/tool-kinds.jsonl')).toEqual({
      bash: { kind: 'shell', name: 'bash', command: 'echo kinds' },
      read: { kind: 'read', name: 'read', paths: ['read.txt'] },
      write: { kind: 'write', name: 'write', paths: ['write.txt'] },
      edit: { kind: 'edit', name: 'edit', paths: ['write.txt'] },
      grep: { kind: 'search', name: 'grep', query: 'TODO', paths: ['.'] },
      find: { kind: 'search', name: 'find', query: '*.txt', paths: ['.'] },
      ls: { kind: 'list', name: 'ls', paths: ['.'] },
    });
  });
});
