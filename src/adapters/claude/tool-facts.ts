// What Claude Code's tools are, portably (`tool` on tool_use, tool_result and canUseTool requests).
// Names and inputs as 2.1.197–2.1.332 print them: the init record's `tools` list and sdk-tools.d.ts
// of the package; MultiEdit, Glob, Grep, LS, TodoWrite, NotebookRead and AskUserQuestion are older or
// mode-dependent names of the same CLI (not in 2.1.332's `-p` list) and keep their documented inputs.
import type { ToolCatalog, ToolRule } from '../../core/contract/tool-catalog.js';
import { serverOfMcpName } from '../../core/translate/tool-facts.js';

const other: ToolRule = { kind: 'other' };
const plan: ToolRule = { kind: 'plan' };
const search: ToolRule = { kind: 'search', query: ['pattern'], paths: ['path'] };

export const claudeToolCatalog: ToolCatalog = {
  source: 'stream-json `tool_use` names (also the session store and `can_use_tool` requests)',
  note: '`command` is the Bash input as the model wrote it (the CLI runs it in its own shell, no wrapper); `paths` are as given (Read, Write and Edit take absolute paths).',
  tools: {
    Bash: { kind: 'shell', command: ['command'] },
    Read: { kind: 'read', paths: ['file_path'] },
    NotebookRead: { kind: 'read', paths: ['notebook_path'] },
    Write: { kind: 'write', paths: ['file_path'] },
    Edit: { kind: 'edit', paths: ['file_path'] },
    MultiEdit: { kind: 'edit', paths: ['file_path'] },
    NotebookEdit: { kind: 'edit', paths: ['notebook_path'] },
    Glob: search,
    Grep: search,
    LS: { kind: 'list', paths: ['path'] },
    WebFetch: { kind: 'fetch', url: ['url'] },
    WebSearch: { kind: 'web_search', query: ['query'] },
    Task: { kind: 'task' },
    Agent: { kind: 'task' },
    TodoWrite: plan,
    TaskCreate: plan,
    TaskUpdate: plan,
    TaskList: plan,
    TaskGet: plan,
    ExitPlanMode: plan,
    AskUserQuestion: { kind: 'ask' },
    ListMcpResourcesTool: { kind: 'mcp', server: ['server'] },
    ReadMcpResourceTool: { kind: 'mcp', server: ['server'] },
    TaskOutput: other,
    TaskStop: other,
    BashOutput: other,
    KillShell: other,
    Monitor: other,
    SendMessage: other,
    ListAgents: other,
    Skill: other,
    ToolSearch: other,
    Workflow: other,
    ReportFindings: other,
    CronCreate: other,
    CronDelete: other,
    CronList: other,
    ScheduleWakeup: other,
    EnterWorktree: other,
    ExitWorktree: other,
  },
  mcp: { spelling: '`mcp__<server>__<tool>`', server: (name) => serverOfMcpName(name) },
};
