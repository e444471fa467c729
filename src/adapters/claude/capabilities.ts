// What Claude Code supports, as data (checked on 2.1.332; flags also present in 2.1.197).
// Anything not listed fails fast with FeatureNotSupportedError.
import type { CapabilityTable } from '../../core/contract/adapter.js';
import type { FeatureName } from '../../options.js';
import { native } from '../../core/contract/adapter.js';


export const claudeCapabilities: CapabilityTable = {
  model: native('--model'),
  reasoningEffort: native('--effort (low, medium, high, xhigh, max; only effort-capable models change)'),
  workingDirectory: native('process cwd'),
  addDirs: native('--add-dir'),
  allowedTools: native('--allowed-tools'),
  'permissionPolicy.mode=plan': native('--permission-mode plan'),
  'permissionPolicy.mode=bypass': native('--permission-mode bypassPermissions (as root: needs IS_SANDBOX=1)'),
  'permissionPolicy.allow': native('--allowed-tools'),
  'permissionPolicy.deny': native('--disallowed-tools'),
  'permissionPolicy.denyKinds': native('--disallowed-tools=<every tool of those kinds in the Tool kinds table below> (2.1.332 takes the older names too)'),
  sessionId: native('--session-id (a UUID)'),
  systemPrompt: native('--system-prompt'),
  appendSystemPrompt: native('--append-system-prompt'),
  tools: native('--mcp-config=<temp file> (the SDK-hosted MCP bridge, HTTP on 127.0.0.1 with a per-run secret) + --allowed-tools=mcp__coderline__<tool>; every call passes the gate on the host (permissionPolicy.deny refuses and hides the tool, allowedTools / permissionPolicy.allow run it unasked, else canUseTool when set) and is a progress event tool_bridge.call'),
  mcpServers: native('fronted by the tool bridge: the host connects to each server itself (stdio: spawned in a process group of its own, stopped with the run; HTTP: with its headers) and re-serves its tools at /mcp/<name>, so no env or header value reaches the CLI; each call passes the gate on the host like a custom tool call. Tools only: resources and prompts are not fronted. A server that cannot start is an invalid_options error before the CLI starts. The CLI gets each as type http at the bridge in the --mcp-config file, + --allowed-tools=mcp__<server> (the bridge asks, so Claude does not); tool names stay mcp__<server>__<tool>'),
  strictMcpConfig: native('--strict-mcp-config (default: not passed, so the user\'s and the project\'s MCP servers load too)'),
  permissionMode: native('--permission-mode'),
  canUseTool: native('open(): --permission-prompt-tool stdio (control requests on the pipes); run(): --permission-prompt-tool naming a tool of the MCP bridge. Changed input and a deny message reach the CLI. Calls of `tools` and of `mcpServers` are asked by the tool bridge on the host, whoever makes them (toolName mcp__<server>__<tool>, or a custom tool\'s name; mcpServer and mcpTool set), once. Not asked, so never seen by the callback: tools in allowedTools / permissionPolicy.allow, and what Claude runs without asking in its permission mode (reads such as Read, Glob, Grep; everything under bypassPermissions)'),
  onUserInput: native('AskUserQuestion arrives as a permission question (open(): --permission-prompt-tool stdio; run(): the MCP bridge\'s permission prompt tool, also without canUseTool) and is answered as an allow whose updatedInput carries answers (question text → label, several joined with ", "); the model reads "Your questions have been answered: …"; decline and no answer are a deny whose message it reads. Elicitations of `tools` (ctx.elicit) and of `mcpServers` are answered by the tool bridge on the host. Asked in every permission mode but dontAsk (2.1.332: plan, acceptEdits and bypassPermissions asked), where Claude denies it unasked ("… denied because Claude Code is running in don\'t ask mode"). Without onUserInput (and canUseTool) AskUserQuestion is disabled: the model reads "No such tool available: AskUserQuestion"'),
  settingSources: native("--setting-sources; a run with canUseTool or permissionPolicy allow/deny gets --setting-sources=user unless given, and refuses 'project' / 'local' (the repository's settings allow tools past the gate and run hooks)"),
  isolation: native("strict: CLAUDE_CONFIG_DIR = a private dir per coder, plus --strict-mcp-config"),
  agents: native('--agents <json>'),
  maxBudgetUsd: native('--max-budget-usd'),
  fallbackModel: native('--fallback-model (taken after repeated 529 overloaded answers: a system/model_fallback record, then the next request names it)'),
  extraArgs: native('added after the flags the adapter sets; flags it sets itself are refused'),
  claudeBare: native('--bare'),
  claudeNoSessionPersistence: native('--no-session-persistence'),
  outputSchema: native('--json-schema (the CLI adds a StructuredOutput tool)'),
  strictSchema: native('--json-schema'),
  streamPartialMessages: native('--include-partial-messages'),
  maxTurns: native('--max-turns'),
  images: native('--input-format=stream-json: the prompt goes as one user message, base64 image blocks first, then the text (PNG, JPEG, GIF, WebP by extension; read before the run starts); live sessions: the same blocks in the user line of send()'),
  files: native('--input-format=stream-json: document blocks in the user message before the text, a PDF as base64 (application/pdf), any other file as text (text/plain), titled with its path; live sessions: the same blocks in the user line of send()'),
};

export const claudeInsteadHints: Partial<Record<FeatureName, string>> = {
  codexReasoningEffort: 'Use reasoningEffort (Claude: --effort).',
  codexSandbox: 'Use permissionPolicy.mode ("plan" is read-only) or permissionMode.',
  codexDangerouslyBypassApprovalsAndSandbox: 'Use permissionPolicy.mode = "bypass".',
  codexEphemeral: 'Use claudeNoSessionPersistence.',
  codexIgnoreUserConfig: 'Use isolation: "strict" or settingSources.',
  copilotMode: 'Use permissionPolicy.mode or permissionMode.',
  copilotAvailableTools: 'Use permissionPolicy.allow / allowedTools.',
  copilotExcludedTools: 'Use permissionPolicy.deny.',
  copilotAgent: 'Define agents with the agents option.',
  piNoSession: 'Use claudeNoSessionPersistence.',
  piNoContextFiles: 'Use claudeBare (skips CLAUDE.md discovery).',
};

/** Flags the claude adapter sets itself, with their aliases: the print mode and its output format, the session flags, and every flag an option above sets. extraArgs may not pass them. */
export const claudeOwnedFlags: readonly string[] = ['-p', '--print', '--output-format', '--input-format', '--verbose', '--model', '--fallback-model', '--effort', '--permission-mode', '--dangerously-skip-permissions', '--allow-dangerously-skip-permissions', '--add-dir', '--allowed-tools', '--allowedTools', '--disallowed-tools', '--disallowedTools', '--setting-sources', '--system-prompt', '--append-system-prompt', '--agents', '--max-budget-usd', '--bare', '--no-session-persistence', '--json-schema', '--include-partial-messages', '--max-turns', '--session-id', '-r', '--resume', '-c', '--continue', '--fork-session', '--mcp-config', '--strict-mcp-config', '--permission-prompt-tool', '--'];
