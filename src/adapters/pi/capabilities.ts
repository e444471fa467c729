// What pi can be told, as data. A feature missing here fails fast with FeatureNotSupportedError
// (the core checks); `how` is what adapters.md shows. Verified on pi 1.6.0
// (@earendil-works/pi-coding-agent); `since` marks flags older swept versions lack.
import type { CapabilityTable } from '../../core/contract/adapter.js';
import type { FeatureName } from '../../options.js';

/**
 * `--exclude-tools` and `--session-id`: absent from the `--help` of 0.73.1 (pi exits 1 on them), in
 * that of 0.79.10, the oldest swept version of the new package name (docs/compat.md).
 */
const FLAGS_OF_0_79 = '0.79.10';

/**
 * pi.registerMcpServer: in the published 0.99.1 code, not in 0.87.1's; 0.85.1 refuses `-e builtin:mcp`
 * ("Extension path does not exist"), 1.3.0 and 1.6.0 run the tool bridge (0.99.1 itself cannot be
 * installed from the registry: a dependency of it is missing).
 */
const MCP_SINCE = '0.99.1';
/** `--thinking max`: 0.79.10 only warns "Invalid thinking level" and runs without it; 0.85.1 is the first swept version with it. */
export const THINKING_MAX_SINCE = '0.85.1';
/** `--no-approve` (project trust came in 0.79.0): 0.79.10 is the oldest swept version that has it; 0.73 has neither. */
export const NO_APPROVE_SINCE = '0.79.10';

/** pi's read-only built-in tools: what plan mode allows. */
export const PI_READ_ONLY_TOOLS = ['read', 'grep', 'find', 'ls'] as const;

export const piCapabilities: CapabilityTable = {
  model: { level: 'native', how: '--model <pattern> (provider/id and :<thinking> shorthand accepted)' },
  extraArgs: { level: 'native', how: 'added after the flags the adapter sets; flags it sets itself are refused' },
  reasoningEffort: { level: 'native', how: '--thinking <off|minimal|low|medium|high|xhigh|max> (none → off; max needs 0.85.1)' },
  workingDirectory: { level: 'native', how: 'process cwd' },
  allowedTools: { level: 'best-effort', how: '--tools <a,b> allowlist (tools not listed are not offered at all)' },
  'permissionPolicy.allow': { level: 'best-effort', how: '--tools <a,b> allowlist (merged with allowedTools)' },
  'permissionPolicy.deny': { level: 'native', how: '--exclude-tools <a,b>', since: FLAGS_OF_0_79 },
  'permissionPolicy.denyKinds': { level: 'native', how: '--exclude-tools <every tool of those kinds in the Tool kinds table below>', since: FLAGS_OF_0_79 },
  'permissionPolicy.mode=plan': { level: 'native', how: `--tools ${PI_READ_ONLY_TOOLS.join(',')}` },
  'permissionPolicy.mode=bypass': { level: 'best-effort', how: 'no flag: pi never asks for permission' },
  sessionId: { level: 'native', how: '--session-id <id> for a new session or a fork', since: FLAGS_OF_0_79 },
  systemPrompt: { level: 'native', how: '--system-prompt <text> (an existing file path is read as the prompt)' },
  appendSystemPrompt: { level: 'native', how: '--append-system-prompt <text> (an existing file path is read)' },
  piProvider: { level: 'native', how: '--provider <name>' },
  piModels: { level: 'native', how: '--models <a,b> (model cycling only)' },
  piNoSession: { level: 'native', how: '--no-session (the session cannot be resumed)' },
  piSessionDir: { level: 'native', how: '--session-dir <dir> (storage and lookup for resume/continue/fork)' },
  piNoContextFiles: { level: 'native', how: '--no-context-files (no AGENTS.md / CLAUDE.md)' },
  piNoExtensions: { level: 'native', how: '--no-extensions' },
  piNoSkills: { level: 'native', how: '--no-skills' },
  piNoPromptTemplates: { level: 'native', how: '--no-prompt-templates' },
  tools: {
    level: 'native',
    how: '-e <temp extension> calling pi.registerMcpServer("coderline", { url, headers, exposure: "direct" }) (the SDK-hosted MCP bridge, HTTP on 127.0.0.1 with a per-run secret, passed in the environment) + -e builtin:mcp + mcp__coderline__<tool> added to a --tools allowlist; every call passes the gate on the host (permissionPolicy.deny refuses and hides the tool, allowedTools / permissionPolicy.allow run it unasked, else canUseTool when set) and is a progress event tool_bridge.call',
    since: MCP_SINCE,
  },
  mcpServers: {
    level: 'native',
    how: 'fronted by the tool bridge: the host connects to each server itself (stdio: spawned in a process group of its own, stopped with the run; HTTP: with its headers) and re-serves its tools at /mcp/<name>, so no env or header value reaches the CLI; each call passes the gate on the host like a custom tool call. Tools only: resources and prompts are not fronted. A server that cannot start is an invalid_options error before the CLI starts. The same -e <temp extension> registers each at the bridge, pi.registerMcpServer(<name>, { url, headers, exposure: "direct" }); tools named mcp__<server>__<tool>. A --tools allowlist (allowedTools, plan mode) hides them',
    since: MCP_SINCE,
  },
  canUseTool: { level: 'native', how: 'live sessions only: an extension the SDK installs (-e) asks the host for each tool call through an input dialog; changed input and a deny message reach pi. Every tool call goes through it but those of `tools` and `mcpServers`: the tool bridge asks about each of them on the host, whoever makes them (toolName mcp__<server>__<tool>, or a custom tool\'s name; mcpServer and mcpTool set), once' },
  onUserInput: { level: 'native', how: 'live sessions: the dialogs of extensions (extension_ui_request select, confirm, input, editor; one question each, its answer under "value": a select\'s option, "Yes" / true for a confirm, text) answered with extension_ui_response; a decline or no answer is cancelled (the extension reads undefined, or false for a confirm). pi has no ask tool of its own. Elicitations of `tools` (ctx.elicit) and `mcpServers`, live and one-shot, are answered by the tool bridge on the host. Without onUserInput a live dialog is answered cancelled, as before; one-shot runs answer no dialog' },
  outputSchema: { level: 'best-effort', how: 'schema instructions appended to the prompt; the SDK validates the answer' },
  streamPartialMessages: { level: 'native', how: 'message_update text/thinking deltas (pi always streams; dropped unless asked)' },
  images: { level: 'native', how: '@<file> arguments: pi attaches them to the first message (images by content type) next to the prompt from stdin; live sessions: the images field of the rpc prompt command (base64). The model must declare input ["text", "image"] in models.json, or pi leaves the image out' },
  files: { level: 'native', how: 'text files only: @<file> arguments, which pi inlines in the first message as <file name="<absolute path>">…</file> after the prompt. A PDF is refused (pi would inline its raw bytes); live sessions refuse files (rpc mode takes no @file)' },
};

/** What to use instead, shown in FeatureNotSupportedError. */
export const piInsteadHints: Partial<Record<FeatureName, string>> = {
  fallbackModel: 'pi has no fallback model (piModels only sets the models to cycle through interactively); retry the run with another model.',
  addDirs: 'pi works in its working directory only; run it in a common parent directory instead.',
  maxTurns: 'pi has no turn limit; bound the run with stallTimeoutMs or an AbortSignal.',
  strictSchema: 'pi has no native structured output; drop strictSchema to get prompt-based output with SDK-side validation.',
  maxBudgetUsd: 'pi has no budget flag; watch RunResult.usage.costUsd (priced from models.json) instead.',
  isolation: 'Point PI_CODING_AGENT_DIR (extraEnv) at a directory of your own to isolate pi\'s config and sessions.',
  permissionMode: 'permissionMode is Claude-only; use permissionPolicy (pi: --tools / --exclude-tools).',
  strictMcpConfig: "pi always loads the MCP servers of its mcp.json (global, and the project's when trusted); point PI_CODING_AGENT_DIR (extraEnv) at a directory of your own to leave the user's out.",
};

/** Flags the pi adapter sets itself, with their aliases: the JSON mode, the session flags, the tool list, extensions and every flag an option above sets. extraArgs may not pass them. */
export const piOwnedFlags: readonly string[] = ['--mode', '-p', '--print', '--provider', '--model', '--models', '--thinking', '-t', '--tools', '--no-tools', '-nt', '--exclude-tools', '-xt', '--system-prompt', '--append-system-prompt', '--no-session', '--session-dir', '--session', '--session-id', '-c', '--continue', '--fork', '-r', '--resume', '--no-context-files', '-nc', '-a', '--approve', '-na', '--no-approve', '--no-extensions', '-ne', '--no-skills', '-ns', '--no-prompt-templates', '-np', '-e', '--extension', '--'];
