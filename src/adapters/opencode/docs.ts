// What adapters.md says about OpenCode beyond the capability table (verified on 1.18.33).
import type { AdapterDocs } from '../../core/contract/adapter.js';

export const opencodeDocs: AdapterDocs = {
  invocation: 'opencode run --format json --thinking …  (prompt on stdin, byte-exact; never on argv, where OpenCode quotes an element with a space)',
  sessions: {
    resume: '--session=<id> (an unknown id exits 1, "Session not found": session_not_found)',
    resumeLatest: '--continue (the most recent session of the store)',
    fork: '--session=<id> --fork: a new session id with the history, titled "<title> (fork #1)"',
    history: "SQLite in $XDG_DATA_HOME/opencode/opencode.db (the coder's own under isolation 'strict'), read through `opencode session list --format json` and `opencode export <id>`; title: OpenCode's",
  },
  notes: [
    '`run` writes no final record: a run ends with the process, and a `step_finish` whose reason is not `tool-calls` is the done; its step\'s `text` parts are the answer. Exit 0 with a last `step_finish` of `tool-calls` is a run that OpenCode stopped after auto-rejecting a permission ask: reported as a failed run (feature_not_supported), never as a success with no answer.',
    '`run` asks no one: every `ask` permission (reading outside the working directory by default, or a rule of your config) is rejected and the run stops. `permissionPolicy` goes to OPENCODE_PERMISSION, which wins over every config file; `canUseTool` fails fast in `run()` and works in live sessions (`opencode acp`), where every tool call is asked.',
    'A gated run (permissionPolicy allow/deny or plan mode) sets OPENCODE_DISABLE_PROJECT_CONFIG=1: none of the repository\'s `opencode.json`, `.opencode/` agents, commands or plugins, nor its AGENTS.md, load past the gate. Changing OPENCODE_PERMISSION, OPENCODE_CONFIG_CONTENT or OPENCODE_DISABLE_PROJECT_CONFIG through extraEnv/unsetEnv then fails fast.',
    'The adapter sets OPENCODE_DISABLE_AUTOUPDATE, OPENCODE_DISABLE_SHARE, OPENCODE_DISABLE_MODELS_FETCH and OPENCODE_DISABLE_LSP_DOWNLOAD. OpenCode still installs `@opencode-ai/plugin` into its config dir from the npm registry at every start (in the background; a failure does not affect the run): point `npm_config_registry` (extraEnv) at a mirror, or at a dead loopback port offline.',
    'Without a provider in its config OpenCode picks its own hosted model; give it one (`opencode.json` of your config, or OPENCODE_CONFIG) and a `model` of the form provider/model. A model the config lacks is an `UnknownError` "Unexpected server error" with no model request.',
    'OpenCode retries 429 and 5xx five times on its own (about 75 s) without a record; a hung model call has no client timeout unless `provider.<id>.options.timeout` (ms) is set. The stall watch (`stallTimeoutMs`) bounds both.',
    'Usage is per model call (`step_finish.tokens`), summed; `inputTokens` = input + cache read + cache write; `costUsd` only when OpenCode priced the model.',
    '`text` and `reasoning` parts are whole: there are no deltas to stream. Reasoning is printed because the adapter passes `--thinking`.',
    'A `todowrite` call is also a `plan` event; a `task` call (subagent) is also a `subagent` event when it ends — the child session\'s own calls are not printed by `run`.',
    'A new session is titled with its first prompt (`--title=`: its first 50 characters, then "..."), so OpenCode makes no title model call of its own; resumed and forked sessions keep theirs.',
    '`run` starts no server unless `--port` or `--attach` is given (both refused in extraArgs); it is one process, stopped by SIGTERM.',
  ],
};
