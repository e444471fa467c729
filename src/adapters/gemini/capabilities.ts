// What the Gemini CLI can be told, as data. A feature missing here fails fast with
// FeatureNotSupportedError (the core checks); `how` is what adapters.md shows. Verified on 0.61.0
// against the fake Gemini API of coderline/testing.
import type { CapabilityTable } from '../../core/contract/adapter.js';
import type { FeatureName } from '../../options.js';

export const geminiCapabilities: CapabilityTable = {
  model: { level: 'native', how: '--model=<id>' },
  extraArgs: { level: 'native', how: 'added before the session flags; flags the adapter sets itself are refused' },
  workingDirectory: { level: 'native', how: 'the process cwd (sessions are kept per directory)' },
  addDirs: { level: 'native', how: '--include-directories=<dir>, once per directory' },
  allowedTools: { level: 'native', how: 'tools.allowed in the run\'s settings: a tool name, or run_shell_command(<command prefix>); the tool is then offered and runs unasked' },
  'permissionPolicy.allow': { level: 'native', how: 'tools.allowed in the run\'s settings (as allowedTools)' },
  'permissionPolicy.deny': { level: 'native', how: 'tools.exclude in the run\'s settings: the tool is not offered (whole tools only)' },
  'permissionPolicy.denyKinds': { level: 'native', how: 'tools.exclude in the run\'s settings: every tool of those kinds in the Tool kinds table below is not offered' },
  'permissionPolicy.mode=plan': { level: 'native', how: '--approval-mode=plan, with exit_plan_mode excluded (headless it is approved and switches the session to YOLO)' },
  'permissionPolicy.mode=bypass': { level: 'native', how: '--approval-mode=yolo' },
  sessionId: { level: 'native', how: '--session-id=<uuid> (a UUID; an existing one exits 42)' },
  systemPrompt: { level: 'native', how: 'GEMINI_SYSTEM_MD=<temp file>: replaces the system prompt' },
  isolation: { level: 'native', how: "'strict': sessions in the coder's state dir, which is HOME too (no ~/.gemini, no ~/.env); without it they are kept in the user's Gemini home. Every run has a GEMINI_CLI_HOME of its own for its settings" },
  strictMcpConfig: { level: 'native', how: '--allowed-mcp-server-names=<the bridge\'s servers>' },
  tools: { level: 'native', how: "mcpServers.coderline in the run's settings (httpUrl at the SDK-hosted bridge on 127.0.0.1, the per-run secret in a header, trust: true since the bridge gates every call on the host); the model sees mcp_coderline_<tool>" },
  mcpServers: { level: 'native', how: "fronted by the tool bridge: the host connects to each server and re-serves its tools at /mcp/<name>; the run's settings name each as httpUrl (trust: true, the bridge gates each call); no env or header value reaches the CLI" },
  outputSchema: { level: 'best-effort', how: 'schema instructions appended to the prompt; the SDK validates the answer' },
  maxTurns: { level: 'native', how: 'model.maxSessionTurns in the run\'s settings: the model calls of this run (a resumed session starts at 0; measured on 0.61.0), the limit exits 53 (max_turns)' },
  images: { level: 'native', how: '@<path> references after the prompt (inside the working directory or addDirs): the CLI sends each as inline data; live sessions: an ACP image content block per image in session/prompt (initialize answers promptCapabilities.image, 0.61.0)' },
  files: { level: 'native', how: '@<path> references after the prompt: text files as their content, PDFs as inline data' },
  geminiSettings: { level: 'native', how: "merged into the run's settings.json; the adapter's telemetry, privacy, security, ide, tools and mcpServers keys win" },
  canUseTool: {
    level: 'native',
    how: 'live sessions only (coder.open()): session/request_permission, answered with the proceed_once or cancel option (by kind: allow_once, reject_once). In its default approval mode Gemini asks before a shell command or a write that its own policy does not allow; read-only tools and commands it deems safe (echo) run unasked, so the callback never sees them. A refused call is cancelled and the model reads "Tool … was canceled by the user."; a changed input is refused (denied, with an error event). One-shot runs ask nobody (a tool that needs approval is not offered): there it is a FeatureNotSupportedError',
  },
  streamPartialMessages: { level: 'native', how: 'the assistant `message` records with delta: true (the CLI always streams; whole messages are assembled at each tool call and at the end)' },
};

/** What to use instead, shown in FeatureNotSupportedError. */
export const geminiInsteadHints: Partial<Record<FeatureName, string>> = {
  reasoningEffort: 'Gemini has no effort flag; its thinking budget is a model setting (modelConfigs in settings), not per run.',
  appendSystemPrompt: 'Gemini can only replace its system prompt (systemPrompt); put extra instructions in the prompt or in GEMINI.md.',
  strictSchema: 'Gemini has no native structured output for the agent turn; drop strictSchema to get prompt-based output with SDK-side validation.',
  fallbackModel: 'Gemini has no fallback model flag; retry the run with another model when it fails with rate_limit or server.',
  maxBudgetUsd: 'Gemini reports tokens, not dollars; there is no budget setting.',
  permissionMode: 'permissionMode is Claude-only; use permissionPolicy.mode.',
};

/** Flags the gemini adapter sets itself, with their aliases; extraArgs may not pass them. */
export const geminiOwnedFlags: readonly string[] = ['-o', '--output-format', '-p', '--prompt', '-i', '--prompt-interactive', '-m', '--model', '--approval-mode', '-y', '--yolo', '--include-directories', '--allowed-mcp-server-names', '--allowed-tools', '-r', '--resume', '--session-id', '--session-file', '--list-sessions', '--delete-session', '--acp', '--experimental-acp', '--skip-trust', '--policy', '--admin-policy', '-s', '--sandbox', '-w', '--worktree', '--raw-output', '--accept-raw-output-risk', '-e', '--extensions', '--'];
