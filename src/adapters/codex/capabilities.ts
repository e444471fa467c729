// What the Codex adapter does with each option, as data (verified on codex-cli 0.171.0).
// An option missing here fails fast with FeatureNotSupportedError, with the hint below.
import type { CapabilityTable } from '../../core/contract/adapter.js';
import type { FeatureName } from '../../options.js';

export const codexCapabilities: CapabilityTable = {
  model: { level: 'native', how: '--model=<model>' },
  reasoningEffort: { level: 'native', how: '-c model_reasoning_effort="<v>" (none, minimal, low, medium, high, xhigh)' },
  codexReasoningEffort: { level: 'native', how: 'legacy alias of reasoningEffort: -c model_reasoning_effort="<v>"' },
  workingDirectory: { level: 'native', how: '-C <dir> plus the process cwd' },
  addDirs: { level: 'native', how: '--add-dir=<dir>, once per directory' },
  'permissionPolicy.mode=plan': { level: 'native', how: '--sandbox read-only' },
  'permissionPolicy.mode=bypass': { level: 'native', how: '--dangerously-bypass-approvals-and-sandbox' },
  'permissionPolicy.deny': {
    level: 'best-effort',
    how: 'only rules that name tools of the tool bridge — a custom tool (its name, or mcp__coderline__<tool>) or a tool of mcpServers (mcp__<server>__<tool>, mcp__<server>, <server>(<tool>)): the bridge hides and refuses them on the host, whoever calls. Codex has no per-tool deny list, so a rule naming anything else (its shell, apply_patch, …) fails fast with FeatureNotSupportedError',
  },
  codexSandbox: { level: 'native', how: '--sandbox <v> (default: workspace-write)' },
  codexNetworkAccess: { level: 'native', how: '-c sandbox_workspace_write.network_access=<bool>' },
  codexDisablePlugins: { level: 'native', how: '--disable plugins' },
  // `exec --search` is refused by 0.171.0 (it is a top-level flag and even there it leaves web access off).
  codexSearch: { level: 'native', how: '-c web_search="<disabled|cached|live>"' },
  codexEphemeral: { level: 'native', how: '--ephemeral' },
  codexIgnoreUserConfig: { level: 'native', how: '--ignore-user-config' },
  codexIgnoreRules: { level: 'native', how: '--ignore-rules' },
  codexDangerouslyBypassApprovalsAndSandbox: { level: 'native', how: '--dangerously-bypass-approvals-and-sandbox' },
  // The first developer message of every request is the base prompt; this file replaces it.
  systemPrompt: { level: 'native', how: '-c model_instructions_file="<tempfile>" (replaces the base instructions)' },
  appendSystemPrompt: { level: 'native', how: '-c developer_instructions="<text>" (an extra developer message)' },
  tools: { level: 'native', how: '-c mcp_servers.coderline.{url, bearer_token_env_var, default_tools_approval_mode="approve", required=true, startup_timeout_sec=60} (the SDK-hosted MCP bridge, HTTP on 127.0.0.1 with a per-run secret); every call passes the gate on the host (permissionPolicy.deny refuses and hides the tool, allowedTools / permissionPolicy.allow run it unasked, else canUseTool when set) and is a progress event tool_bridge.call' },
  mcpServers: { level: 'native', how: 'fronted by the tool bridge: the host connects to each server itself (stdio: spawned in a process group of its own, stopped with the run; HTTP: with its headers) and re-serves its tools at /mcp/<name>, so no env or header value reaches the CLI; each call passes the gate on the host like a custom tool call. Tools only: resources and prompts are not fronted. A server that cannot start is an invalid_options error before the CLI starts. The CLI gets each as -c mcp_servers.<name>.{url at the bridge, bearer_token_env_var, default_tools_approval_mode="approve" (the bridge asks), required=true, startup_timeout_sec=60}; tool names stay mcp__<server>__<tool>' },
  codexConfig: { level: 'native', how: '-c <key>=<value>, once per key, the value as TOML (strings quoted, arrays, inline tables)' },
  extraArgs: { level: 'native', how: 'added before the session arguments (`-`, `resume -- <id> -`); flags the adapter sets itself are refused' },
  // `--image FILE` takes several values and would swallow the `-` that reads the prompt from stdin.
  codexImages: { level: 'native', how: '--image=<file>, once per image' },
  images: { level: 'native', how: '--image=<file>, once per image (codexImages is the legacy spelling; both are attached); live sessions: a localImage input item per image in turn/start. A missing file is refused before the run' },
  // Codex sends the schema as a strict json_schema response format but does not check the answer;
  // the core parses the final agent_message and validates it.
  outputSchema: { level: 'native', how: '--output-schema <tempfile>; the SDK validates the final agent_message' },
  strictSchema: { level: 'native', how: '--output-schema (sent to the model API as json_schema strict:true)' },
  // `codex exec --json` prints whole items only: there are no deltas to stream.
  streamPartialMessages: { level: 'best-effort', how: 'ignored by codex exec --json (whole messages only); in a live session: item/agentMessage/delta and reasoning summary deltas' },
  onUserInput: {
    level: 'best-effort',
    how: 'elicitations only: those of `tools` (ctx.elicit) and `mcpServers`, live and one-shot, answered by the tool bridge on the host. Codex\'s own ask tool, request_user_input, is offered to the model but 0.171.0 answers it "request_user_input is unavailable in Default mode" (it belongs to Codex\'s Plan collaboration mode, an experimental app-server API the SDK does not switch on), with or without onUserInput',
  },
  canUseTool: {
    level: 'native',
    how: 'live sessions only: the thread\'s approval policy is "untrusted", under which Codex asks the host about every command and file change (item/commandExecution/requestApproval, item/fileChange/requestApproval), answered accept or decline. No deny message reaches the model (it reads "rejected by user"); a changed input is refused (declined, with a non-fatal error event). Calls of `tools` and of `mcpServers` are asked by the tool bridge on the host, whoever makes them (toolName mcp__<server>__<tool>, or a custom tool\'s name; mcpServer and mcpTool set), once. MCP servers of the user\'s own config.toml are not fronted and follow their own approval config (not verified here)',
  },
};

/**
 * Why the absent options are absent, and what to do instead.
 * maxTurns: `codex exec` runs exactly one turn per call and 0.171.0 has no key that limits model
 * calls inside it (`-c model_turn_limit` is ignored with a warning), and the JSONL shows no model
 * call boundaries the SDK could count. Rather than accept a limit nothing enforces, it fails fast.
 */
export const codexInsteadHints: Partial<Record<FeatureName, string>> = {
  fallbackModel: 'codex exec has no fallback model (0.171.0); retry the run with another model when it fails with rate_limit or server.',
  maxTurns:
    'codex exec runs one turn per call and has no limit on model calls within it (0.171.0 ignores -c model_turn_limit). Bound the run with `signal` or `stallTimeoutMs` instead.',
  allowedTools: 'Codex has no per-tool allow list; choose a sandbox (codexSandbox or permissionPolicy.mode) instead.',
  'permissionPolicy.allow': 'Codex has no per-tool allow list; choose a sandbox (codexSandbox or permissionPolicy.mode) instead.',
  'permissionPolicy.denyKinds': 'Codex has no per-tool deny flag (0.171.0: its shell, file changes and web search are always offered); decide by tool.kind in canUseTool on a live session (every command and file change is asked), or choose a sandbox (codexSandbox or permissionPolicy.mode).',
  sessionId: 'Codex picks the thread id itself; read RunResult.sessionId and resume with it.',
  files: 'Codex takes only images as attachments (codex exec --image, app-server localImage; 0.171.0 has no file or document input); put the file in the working directory and name its path in the prompt, the agent reads it.',
  strictMcpConfig: "Codex has no switch that drops only the configured MCP servers (-c merges into config.toml); codexIgnoreUserConfig leaves out the user's whole config.toml, MCP servers included.",
};

/** Flags the codex adapter sets itself, with their aliases: JSON output, the working directory, the sandbox, -c (use codexConfig) and every flag an option above sets; and exec's subcommands (`resume <thread>` in extraArgs would resume a thread the run never named). extraArgs may not pass them. */
export const codexOwnedFlags: readonly string[] = ['--json', '--skip-git-repo-check', '-C', '--cd', '-m', '--model', '-s', '--sandbox', '--dangerously-bypass-approvals-and-sandbox', '--add-dir', '--disable', '--ephemeral', '--ignore-user-config', '--ignore-rules', '-c', '--config', '-i', '--image', '--output-schema', '--last', '--', 'resume', 'fork', 'review'];
