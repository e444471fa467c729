// What adapters.md says about pi beyond the capability table (verified on 1.6.0 and 0.73.1).
import type { AdapterDocs } from '../../core/contract/adapter.js';

export const piDocs: AdapterDocs = {
  invocation: 'pi --mode json --print …  (prompt on stdin, stdin closed; PI_OFFLINE=1 unless extraEnv sets it)',
  sessions: {
    resume: '--session <id>: a whole id the store holds (pi would take a prefix, or a value ending in .jsonl as a file path)',
    resumeLatest: '--continue (the latest session of the working directory)',
    fork: '--fork <id> (a whole id the store holds): a new session id with the history copied',
    history: 'piSessionDir, PI_CODING_AGENT_SESSION_DIR or $PI_CODING_AGENT_DIR/sessions (default ~/.pi/agent)/--<dir>--/<time>_<id>.jsonl; title: the first prompt',
  },
  notes: [
    'pi 1.x (@earendil-works/pi-coding-agent) needs Node >= 22.19. On an older default Node, put a Node 22 bin dir first on the child\'s PATH (`extraEnv.PATH` = `<node22>/bin:` + the current PATH) or point `executablePath` at a wrapper that runs pi with Node 22; on Node 20 the 0.73 line (@mariozechner/pi-coding-agent) still works with this adapter.',
    'In JSON mode pi exits 0 when the model call failed: the last assistant `message_end` with `stopReason: "error"` decides the run (401/403 → `auth`, 429 → `rate_limit`, 5xx and dropped streams → `server`); `aborted` → `aborted`.',
    '`agent_end` is not final while pi retries (`willRetry: true` since 0.75.4; before that `auto_retry_start` follows it). Each failed attempt is a non-fatal `error` event, each retry a `progress` event of kind `retry`; the streamed text of a retried answer restarts with `reset: true`. Bound retries with `retry.maxRetries` / `retry.baseDelayMs` in `$PI_CODING_AGENT_DIR/settings.json`.',
    '`message_update` deltas become `message`/`reasoning` deltas with `streamPartialMessages`; the answer is the text of the last assistant `message_end`. The user prompt, the system prompt (a `system` message in 1.x) and tool results are never answer text.',
    'Usage is per model call (summed): `inputTokens` = pi\'s `input` + `cacheRead` + `cacheWrite`; pi 0.73 reports no reasoning tokens; `costUsd` only when models.json prices the model.',
    'Sessions live in pi\'s own store ($PI_CODING_AGENT_DIR/sessions/<cwd>/, or `piSessionDir`), per working directory, so they outlive the coder; resuming or forking an id the store does not hold fails before pi starts (`session_not_found`).',
    '`--thinking xhigh` and `max` are clamped to `high` for models without a `thinkingLevelMap`; a model declared without reasoning gets no `reasoning_effort` at all.',
    '`--exclude-tools` and `--session-id` are missing from pi 0.73 (it exits 1 with "Unknown option"): `permissionPolicy.deny` and `sessionId` on a pi older than 0.79.10 fail with FeatureNotInVersionError before pi starts. The swept versions from 0.79.10 on need Node >= 22.19 (their engines field).',
    'A gated run (canUseTool, permissionPolicy allow/deny or plan mode) passes `--no-approve`: pi (>= 0.79) then ignores the repository\'s trust-gated `.pi/` (extensions, which run code in pi\'s process; settings; `mcp.json`) even in a folder `trust.json` trusts — measured on 1.6.0, a project extension loaded past both gates there. pi 0.73 has neither project trust nor the flag, so a gated run on a pi older than 0.79.10 fails with FeatureNotInVersionError before pi starts.',
    'pi runs bash in its own session (detached) and stops it only when pi gets SIGTERM/SIGHUP; SIGINT or SIGKILL leave a running command behind.',
    '`--system-prompt` / `--append-system-prompt` read a file when the text is the path of an existing file.',
  ],
};
