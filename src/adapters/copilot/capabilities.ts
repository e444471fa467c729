// What the Copilot CLI can be told, as data. A feature missing here fails fast with
// FeatureNotSupportedError (the core checks); `how` is what adapters.md shows.
// Verified against GitHub Copilot CLI 1.0.102 through its bring-your-own-provider mode.
import type { CapabilityTable } from '../../core/contract/adapter.js';
import type { FeatureName } from '../../options.js';

export const copilotCapabilities: CapabilityTable = {
  model: { level: 'native', how: '--model=<id>' },
  extraArgs: { level: 'native', how: 'added before the session flags; flags the adapter sets itself are refused' },
  reasoningEffort: { level: 'native', how: '--reasoning-effort <none|minimal|low|medium|high|xhigh|max>' },
  workingDirectory: { level: 'native', how: '-C <dir> plus the process cwd' },
  addDirs: { level: 'native', how: '--add-dir=<dir>, once per directory' },
  allowedTools: { level: 'native', how: '--allow-tool=<rule>, once per rule (e.g. shell(git:*), write)' },
  'permissionPolicy.allow': { level: 'native', how: '--allow-tool=<rule>, once per rule' },
  'permissionPolicy.deny': { level: 'native', how: '--deny-tool=<rule>, once per rule (a denied call fails, the run goes on)' },
  'permissionPolicy.denyKinds': { level: 'native', how: '--excluded-tools=<tool>, once per tool of those kinds in the prompt-mode Tool kinds table below (not with copilotAvailableTools, which makes Copilot ignore it: InvalidOptionsError); live sessions too' },
  'permissionPolicy.mode=plan': { level: 'native', how: '--mode plan' },
  'permissionPolicy.mode=bypass': { level: 'native', how: '--allow-all (tools, paths and URLs)' },
  sessionId: { level: 'native', how: '--session-id=<uuid> (must be a UUID; resumes the session when it exists)' },
  isolation: { level: 'native', how: "'strict': COPILOT_HOME = a private dir per coder (config, sessions, MCP config)" },
  copilotMode: { level: 'native', how: '--mode <interactive|plan|autopilot>' },
  copilotAgent: { level: 'native', how: '--agent=<name> (an unknown agent exits 1)' },
  copilotAllowUrls: { level: 'native', how: '--allow-url=<url>, once per URL' },
  copilotDenyUrls: { level: 'native', how: '--deny-url=<url>, once per URL' },
  copilotAvailableTools: { level: 'native', how: '--available-tools=<tool>, once per tool (then copilotExcludedTools is ignored)' },
  copilotExcludedTools: { level: 'native', how: '--excluded-tools=<tool>, once per tool' },
  tools: { level: 'native', how: '--additional-mcp-config @<temp file> (the SDK-hosted MCP bridge, HTTP on 127.0.0.1 with a per-run secret) + --allow-tool=coderline(<tool>), live sessions too; every call passes the gate on the host (permissionPolicy.deny refuses and hides the tool, allowedTools / permissionPolicy.allow run it unasked, else canUseTool when set) and is a progress event tool_bridge.call' },
  mcpServers: { level: 'native', how: 'fronted by the tool bridge: the host connects to each server itself (stdio: spawned in a process group of its own, stopped with the run; HTTP: with its headers) and re-serves its tools at /mcp/<name>, so no env or header value reaches the CLI; each call passes the gate on the host like a custom tool call. Tools only: resources and prompts are not fronted. A server that cannot start is an invalid_options error before the CLI starts. The CLI gets each as type http at the bridge (tools ["*"]) in one --additional-mcp-config @<temp file>, + --allow-tool=<server> (the bridge asks, so Copilot does not); live sessions too' },
  copilotAdditionalMcpConfig: { level: 'native', how: '--additional-mcp-config @<temp file> (a string starting with @ is passed as is)' },
  outputSchema: { level: 'best-effort', how: 'schema instructions appended to the prompt; the SDK validates the answer' },
  canUseTool: {
    level: 'native',
    how: 'live sessions only (coder.open()): session/request_permission, answered allow_once or reject_once. Copilot asks before every shell command (also `echo`) and every write; reads (`view`) and tools allowed by allowedTools / permissionPolicy.allow / bypass run without asking, so the callback never sees them. A refusal ends the turn (no further model request in it) and carries no custom message (the model reads "The user rejected this tool call."); a changed input is refused (denied, with an error event). toolName is the ACP tool kind (execute, edit, read …). Calls of `tools` and of `mcpServers` are asked by the tool bridge on the host instead, whoever makes them (toolName mcp__<server>__<tool>, or a custom tool\'s name; mcpServer and mcpTool set), once',
  },
  images: {
    level: 'native',
    how: "prompt mode: --attachment <file>, once per image (the model request gets an image part after the prompt); live sessions: an ACP image content block per image in session/prompt (initialize answers promptCapabilities.image from 1.0.79 to 1.0.102). --attachment is in the --help of every swept version (1.0.73 to 1.0.102)",
  },
  streamPartialMessages: { level: 'native', how: 'assistant.message_delta / reasoning_delta records (the CLI always streams; dropped unless asked)' },
};

/** What to use instead, shown in FeatureNotSupportedError. */
export const copilotInsteadHints: Partial<Record<FeatureName, string>> = {
  onUserInput: 'Copilot one-shot runs keep --no-ask-user (its ask tool would wait on a terminal), and this SDK does not answer questions over Copilot\'s ACP yet; the agent works without asking. Custom tools that elicit get cancel there.',
  fallbackModel: 'Copilot has no fallback model flag (1.0.102); retry the run with another model when it fails with rate_limit or server.',
  strictSchema: 'Copilot has no native structured output; drop strictSchema to get prompt-based output with SDK-side validation.',
  maxTurns: 'Copilot has no turn limit in prompt mode; use stallTimeoutMs or an AbortSignal to bound the run.',
  systemPrompt: 'Copilot cannot replace its system prompt; put instructions in the prompt or in AGENTS.md / .github/copilot-instructions.md.',
  appendSystemPrompt: 'Copilot has no flag for this; put instructions in the prompt or in AGENTS.md / .github/copilot-instructions.md.',
  permissionMode: 'permissionMode is Claude-only; use permissionPolicy.mode or copilotMode.',
  maxBudgetUsd: 'Copilot reports premium requests, not dollars; there is no budget flag.',
  files: "Copilot 1.0.102 puts no file content in the model request: prompt mode refuses a text file as --attachment and sends a PDF only as a path in <tagged_files>; ACP embedded resources are written to temp files and sent as paths too. Name the file's path in the prompt: the agent reads it with its view tool.",
  strictMcpConfig: "Copilot has no flag that drops the configured MCP servers; isolation: 'strict' gives it a private COPILOT_HOME, so the user's MCP config stays out.",
};

/** Flags the copilot adapter sets itself, with their aliases: the output format, the usage file, the session flags and every flag an option above sets. extraArgs may not pass them. */
export const copilotOwnedFlags: readonly string[] = ['--acp', '-p', '--prompt', '-i', '--interactive', '--output-format', '--no-ask-user', '--usage-output-file', '--model', '--reasoning-effort', '-C', '--add-dir', '--mode', '--allow-all', '--yolo', '--allow-all-tools', '--allow-tool', '--deny-tool', '--agent', '--allow-url', '--deny-url', '--available-tools', '--excluded-tools', '--additional-mcp-config', '--attachment', '-r', '--resume', '--continue', '--session-id', '--'];
