// What adapters.md says about Codex beyond the capability table (verified on 0.171.0).
import type { AdapterDocs } from '../../core/contract/adapter.js';

export const codexDocs: AdapterDocs = {
  invocation: 'codex exec --json --skip-git-repo-check -C <cwd> … -  (prompt on stdin)',
  sessions: {
    resume: 'exec … resume -- <id> - (run in the original working directory, provider settings passed again)',
    resumeLatest: 'exec … resume --last - (refused before spawning when no thread was recorded for this directory: the CLI would silently start a new one)',
    fork: 'exec … fork -- <id> -',
    history: "$CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<id>.jsonl; title: the first prompt; a resumed thread's usage so far from its last token_count",
  },
  notes: [
    'A gated run (canUseTool, permissionPolicy plan mode) passes `-c projects={ "<cwd>" = { trust_level = "untrusted" }, … }` for the working directory and each folder above it: Codex then loads none of the repository\'s `.codex/config.toml`, even where the user\'s config trusts the folder. Measured on 0.171.0: in a trusted folder that file\'s `mcp_servers` (pre-approved) ran a tool past a denying canUseTool; its `notify` program did not run in the live session.',
    '`codex exec --search` is rejected; web search is `-c web_search="live|cached|disabled"` (`codexSearch`).',
    '`model_turn_limit` does not exist (0.171.0 ignores it with a warning) and the JSONL has no model-call boundaries to count, so `maxTurns` fails fast with FeatureNotSupportedError.',
    '`OPENAI_BASE_URL` is ignored: point Codex at another endpoint with a custom provider through `codexConfig` (`model_providers.<id>.base_url`, `wire_api`, `env_key`).',
    '`turn.completed.usage` is cumulative over the thread, also across resumes and into a fork; `RunResult.usage` is this run\'s share.',
    'Codex does not validate `--output-schema` answers; the SDK parses the final `agent_message` and validates it.',
    'Top-level `error` records "Reconnecting… n/m" are retries (progress), only `turn.failed` ends a turn; `item.completed` of type `error` is a warning.',
    'A command refused by the read-only sandbox leaves no `command_execution` item: only the model sees the refusal.',
  ],
};
