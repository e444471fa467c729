// Renders docs/events.md: what each event type means, and — found by replaying every recorded fixture
// through its adapter's translator — which record of each CLI produces it. `npm run docs`.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { AdapterSpec } from '../src/core/contract/adapter.js';
import { translateLine } from '../src/core/translate/translate-line.js';
import type { CoderEventType } from '../src/events.js';
import { builtInAdapters } from '../src/registry.js';

const meaning: Record<CoderEventType, string> = {
  init: 'The session started: `sessionId`, `model`, `cwd`, `tools` where the CLI says them.',
  message: 'Assistant text: a whole block (`delta: false`) or a fragment (`delta: true`, only with `streamPartialMessages`). `reset: true` means a retry discarded the fragments so far.',
  reasoning: 'Thinking / reasoning summary text, whole or as deltas.',
  tool_use: 'The agent calls a tool: `id`, `name` and `input` as the CLI gave them, and `tool`, the same call in portable terms (below).',
  tool_result: 'A tool finished: `id`, `name` (joined from the call when the record lacks it), `output`, `isError`, and `tool` (the facts of its call, joined by `id` when the record does not repeat the input).',
  progress: 'Everything else worth seeing: retries (`kind: "retry"`), status, warnings, tool output, and records the adapter does not know (`kind: "unknown"`, with the raw record) — never dropped.',
  usage: 'Tokens (and cost when the CLI prices them) of this run: per-run even where the CLI reports session totals (counted from the total this process last saw for the session; a session continued with `resumeLatest()` that another process ran reports its whole total the first time). Copilot\'s tokens are not on stdout: they come from the usage file the CLI writes at exit, in a `usage` event after `done` (not in the table below, which replays stdout records).',
  error: 'A typed error (`code`): `fatal: true` decides the run\'s outcome, `fatal: false` is reported and the run goes on.',
  stderr: 'One line the CLI wrote to stderr, as it happens (the core emits these; no stdout record involved).',
  permission: 'A tool use the CLI asked the host about (`canUseTool`): `toolName`, `input`, `toolUseId`, `tool` (the portable facts the callback got too); `phase: "request"` when the question arrives, `phase: "decision"` with the answer (`decision`, the deny `message`, a changed `updatedInput`). The core emits these; a callback that throws or times out is a `deny` plus a non-fatal `error` event.',
  plan: 'The agent\'s plan as it stands now (`items`: `content`, `status` pending / in_progress / completed): each event holds the whole list.',
  subagent: 'A subagent started by a `task` tool use: `phase` started / progress / completed, `taskId`, `description`, `usage` where given. Events produced inside it carry `parentToolUseId`.',
  compaction: 'The CLI compacted the conversation to fit its context: `phase`, `trigger`, tokens before/after where the CLI says. One that comes after a successful `done` means the CLI went on with the turn (OpenCode\'s summary step ends like a last one; pi compacts after its answer): the next `done` decides, and the run is not stopped in between. adapters.md (Events) says what brings each CLI to compact.',
  user_input: 'The agent asked the user (`onUserInput`): `phase: "request"` with the `questions`, `phase: "answer"` with `answers` or `decline`.',
  user_message: 'A message pushed into a running turn with `steer()`, at the point the CLI took it.',
  done: 'The CLI\'s terminal record: `status`, final `text`, `sessionId`, native structured `output`. The exit code can still overrule it, and a `compaction` after a successful one reopens the turn.',
};

/** A short name for a record: its type, plus the sub-kind that tells records of one type apart. */
function recordLabel(record: unknown): string {
  const r = (record ?? {}) as Record<string, unknown>;
  const type = String(r.type ?? '(no type)');
  const nested = (key: string) => ((r[key] as Record<string, unknown> | undefined)?.type as string | undefined);
  if (typeof r.subtype === 'string') return `${type}/${r.subtype}`;
  const content = (r.message as { content?: unknown } | undefined)?.content;
  if ((type === 'assistant' || type === 'user') && Array.isArray(content)) {
    return `${type}[${[...new Set(content.map((block) => String((block as { type?: unknown }).type)))].join(',')}]`;
  }
  const sub = nested('item') ?? nested('event') ?? nested('assistantMessageEvent') ?? (r.message as { role?: string } | undefined)?.role;
  return sub ? `${type}:${sub}` : type;
}

/** Event type → labels of the records that produced it, over all of a CLI's fixtures. */
export function sourcesOf(adapter: AdapterSpec<string>): Map<string, Set<string>> {
  const sources = new Map<string, Set<string>>();
  const root = new URL(`../fixtures/${adapter.name}/`, import.meta.url);
  for (const version of readdirSync(root)) {
    for (const file of readdirSync(new URL(`${version}/`, root)).filter((f) => f.endsWith('.jsonl'))) {
      const translator = adapter.createTranslator({ opts: { streamPartialMessages: true }, session: { kind: 'new' } });
      for (const line of readFileSync(new URL(`${version}/${file}`, root), 'utf8').split('\n')) {
        // The same line → events step a live run takes; each event carries its record as `raw`.
        for (const event of translateLine(translator, adapter.name, line)) {
          const set = sources.get(event.type) ?? new Set<string>();
          set.add(recordLabel(event.raw));
          sources.set(event.type, set);
        }
      }
    }
  }
  return sources;
}

export function renderEventsMd(): string {
  const adapters = Object.values(builtInAdapters) as AdapterSpec<string>[];
  const found = new Map(adapters.map((a) => [a.name, sourcesOf(a)]));
  // Versions with `npm run record` sets: the sweep's compat/ recordings are not read here.
  const recorded = (cli: string) => readdirSync(new URL(`../fixtures/${cli}/`, import.meta.url)).filter((version) => readdirSync(new URL(`../fixtures/${cli}/${version}/`, import.meta.url)).some((file) => file.endsWith('.jsonl')));
  const versions = adapters.map((a) => `${a.name} ${recorded(a.name).join(', ')}`).join('; ');
  const out: string[] = [
    '# Events',
    '',
    '<!-- Generated by `npm run docs` (scripts/events-md.ts) by replaying fixtures/ through the translators. Do not edit by hand. -->',
    '',
    'Every event has `type`, `provider` (the CLI), `ts` (ms since the epoch), `raw` (the parsed record; the text for a line that was not JSON) and, where the CLI has more to say, `extra`. `CoderStreamEvent` in `src/events.ts` is the discriminated union.',
    '',
    '`onEvent` and `collectEvents` get every event. So does a `session.stream()` loop: from the moment its iterator is asked for, the loop paces the CLI and nothing is dropped. A stream nobody iterates does not hold the run back (`await stream.result` alone settles): until the first iterator it keeps the events of the latest 1 MiB of the CLI\'s output and drops older ones; a loop that starts after some were dropped first gets a `progress` warning (`subtype: "unread_events_dropped"`) saying how many, then the kept events in order.',
    '',
    'Calls that reach the tool bridge (custom `tools`, and the tools of `mcpServers`, which the bridge fronts) are not records of the CLI: each one adds a `progress` event with `kind: "status"`, `subtype: "tool_bridge.call"` once the host decided it, `extra: { server, tool, decision: "allow" | "deny", decidedBy: "permissionPolicy" | "canUseTool" | "none", inCliRecords }` and `raw: { server, tool, arguments }`. `inCliRecords` is false when no `tool_use` of the CLI named that tool (a caller other than the CLI, such as a command of the agent that read the bridge\'s secret); see docs/tools.md. A question to Claude\'s permission prompt tool that the CLI\'s records did not show (or that repeats one already asked) is refused unasked and adds a `progress` event with `subtype: "tool_bridge.permission_refused"` and `raw` the question\'s arguments.',
    '',
    '## Portable tool facts (`tool`)',
    '',
    '`tool_use`, `tool_result`, `permission` events and the `canUseTool` request carry `tool: { kind, name, command?, paths?, query?, url?, server? }`, mapped by each adapter from its CLI\'s own tool name and input, so one policy or progress view holds on every CLI: `kind` is `shell`, `read`, `write`, `edit`, `search`, `list`, `fetch`, `web_search`, `mcp`, `task` (a subagent), `plan`, `ask` (a question to the user) or `other` (every tool the adapter does not know); `name` is the name the event shows; `command` the shell command line (Codex: with its `/bin/bash -lc` wrapper, as it runs it; the others: as the model wrote it); `paths` the files or directories the input names, as given, not resolved (Claude\'s and Copilot\'s file tools take absolute paths, pi\'s relative ones too; Codex prints its file changes absolute); `query` the pattern or search; `url` the address; `server` an MCP tool\'s server (calls that reach the tool bridge: the bridge\'s server, `coderline` for custom tools). Which tool name is which kind, and which input fields feed the facts, is the "Tool kinds" table of each CLI in adapters.md.',
    '',
    `Which records produce which events is measured, not written by hand: every recorded fixture (${versions}) is replayed through its adapter's translator.`,
  ];
  for (const type of Object.keys(meaning) as CoderEventType[]) {
    out.push('', `## \`${type}\``, '', meaning[type], '');
    const rows = adapters.map((a) => {
      const labels = [...(found.get(a.name)?.get(type) ?? [])].sort();
      return `| ${a.name} | ${labels.length ? labels.map((l) => `\`${l}\``).join(', ') : '—'} |`;
    });
    out.push('| CLI | records |', '| --- | --- |', ...rows);
  }
  return `${out.join('\n')}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(new URL('../docs/events.md', import.meta.url), renderEventsMd());
}
