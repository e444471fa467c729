// What the OpenCode adapter does with each option, as data (verified on opencode 1.18.33).
// An option missing here fails fast with FeatureNotSupportedError, with the hint below.
import type { CapabilityTable } from '../../core/contract/adapter.js';
import type { FeatureName } from '../../options.js';
import { opencodeToolKindsText } from './tools.js';

const BRIDGE = 'the SDK-hosted MCP bridge (HTTP on 127.0.0.1 with a per-run secret), given to OpenCode in OPENCODE_CONFIG_CONTENT as mcp.<name> = { type: "remote", url, oauth: false, headers: { Authorization: "Bearer {env:CODERLINE_TOOL_BRIDGE_SECRET}" } } (the secret stays in the environment, not in the config text); tools named <server>_<tool> by OpenCode, reported as the custom tool\'s name or mcp__<server>__<tool>';

export const opencodeCapabilities: CapabilityTable = {
  model: { level: 'native', how: '--model=<provider/model>' },
  reasoningEffort: { level: 'best-effort', how: '--variant=<effort> (the model\'s variants, e.g. low, medium, high; OpenCode ignores a variant the model lacks without a word)' },
  workingDirectory: { level: 'native', how: 'process cwd' },
  allowedTools: { level: 'native', how: 'OPENCODE_PERMISSION {"<tool>": "allow"} (write, patch and multiedit are OpenCode\'s `edit`); rules naming tools of the tool bridge are decided there' },
  'permissionPolicy.allow': { level: 'native', how: 'OPENCODE_PERMISSION {"<tool>": "allow"}, like allowedTools' },
  'permissionPolicy.deny': { level: 'native', how: 'OPENCODE_PERMISSION {"<tool>": "deny"} (OpenCode then does not offer the tool; a call of it fails as the tool `invalid`); rules naming tools of the tool bridge are refused and hidden by the bridge' },
  'permissionPolicy.denyKinds': { level: 'native', how: `OPENCODE_PERMISSION {"<tool>": "deny"} for every OpenCode tool of those kinds (${opencodeToolKindsText()}); OpenCode keys write, edit and patch under one permission, \`edit\`, so denying either kind denies both` },
  'permissionPolicy.mode=plan': { level: 'native', how: 'OPENCODE_PERMISSION {"edit": "deny", "bash": "deny", "task": "deny"} (read, glob, grep, webfetch and todowrite stay); OpenCode\'s own `plan` agent is not used: it still runs bash' },
  'permissionPolicy.mode=bypass': { level: 'native', how: '--auto (approves every ask that no rule denies, reading outside the working directory included)' },
  isolation: { level: 'native', how: "'strict': XDG_CONFIG_HOME, XDG_DATA_HOME (sessions), XDG_CACHE_HOME and XDG_STATE_HOME in a private dir per coder, and OPENCODE_DISABLE_CLAUDE_CODE=1; stored logins are then not found (pass API keys in the environment)" },
  extraArgs: { level: 'native', how: 'added before the session flags; flags the adapter sets itself are refused' },
  tools: { level: 'native', how: `${BRIDGE}; every call passes the gate on the host (permissionPolicy.deny refuses and hides the tool, allowedTools / permissionPolicy.allow run it unasked, else canUseTool when set) and is a progress event tool_bridge.call` },
  mcpServers: { level: 'native', how: `fronted by the tool bridge: the host connects to each server itself (stdio: spawned in a process group of its own, stopped with the run; HTTP: with its headers) and re-serves its tools at /mcp/<name>, so no env or header value reaches the CLI; tools only. Each is ${BRIDGE}` },
  outputSchema: { level: 'best-effort', how: 'schema instructions appended to the prompt; the SDK validates the answer (OpenCode has no structured output in `run`)' },
  streamPartialMessages: { level: 'best-effort', how: 'ignored: `run --format json` writes whole text and reasoning parts only' },
  canUseTool: { level: 'native', how: 'live sessions only (coder.open(), over `opencode acp`): OPENCODE_PERMISSION {"*": "ask"} with the policy\'s rules after it, so every tool call not allowed or denied by a rule comes as session/request_permission, answered once (allow_once / reject_once). A refusal fails the call and ends the turn; no deny message and no changed input reach the model (a changed input is refused). One-shot runs cannot ask (`run` rejects every ask): canUseTool there fails fast. Calls of `tools` and `mcpServers` are asked by the tool bridge on the host instead' },
  images: { level: 'native', how: '--file=<absolute path> per image (OpenCode attaches it as a file part); live sessions: an ACP image content block per image in session/prompt (initialize answers promptCapabilities.image, 1.18.33)' },
  files: { level: 'native', how: '--file=<absolute path> per file: OpenCode reads it in as a Read tool call of the first message' },
};

/** Why the absent options are absent, and what to do instead. */
export const opencodeInsteadHints: Partial<Record<FeatureName, string>> = {
  maxTurns: 'OpenCode\'s step limit (agent.<name>.steps) is advisory in 1.18.33 (tools still run after it); bound the run with stallTimeoutMs or an AbortSignal.',
  sessionId: 'OpenCode picks the session id (ses_…); read RunResult.sessionId and resume with it.',
  fallbackModel: 'OpenCode has no fallback model; retry the run with another model.',
  maxBudgetUsd: 'OpenCode has no budget limit; watch RunResult.usage.costUsd.',
  strictSchema: 'OpenCode has no native structured output in `run`; drop strictSchema for prompt-based output that the SDK validates.',
  systemPrompt: 'Put instructions in an AGENTS.md of the working directory, or an agent of your OpenCode config.',
  appendSystemPrompt: 'Put instructions in an AGENTS.md of the working directory, or `instructions` of your OpenCode config.',
  addDirs: 'OpenCode works in its working directory; reading elsewhere is an ask that `run` rejects. Run it in a common parent, or use permissionPolicy.mode "bypass".',
  strictMcpConfig: "OpenCode always merges the MCP servers of its configs; isolation: 'strict' leaves the user's global config out.",
  permissionMode: 'permissionMode is Claude-only; use permissionPolicy.',
};

/** Flags the adapter sets itself, with their aliases, and those that would change what a run is (another server, a command, the message). extraArgs may not pass them. */
export const opencodeOwnedFlags: readonly string[] = ['--format', '--thinking', '--title', '-m', '--model', '--variant', '--auto', '-f', '--file', '-s', '--session', '-c', '--continue', '--fork', '--attach', '--port', '--dir', '--command', '--share', '-i', '--interactive', '-p', '--password', '-u', '--username', '--'];
