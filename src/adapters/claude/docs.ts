// What adapters.md says about Claude Code beyond the capability table (verified on 2.1.332).
import type { AdapterDocs } from '../../core/contract/adapter.js';

export const claudeDocs: AdapterDocs = {
  invocation: 'claude -p --output-format=stream-json --verbose …  (prompt on stdin)',
  sessions: {
    resume: '--resume=<id> (same config dir and working directory as the first run)',
    resumeLatest: '--continue',
    fork: '--resume=<id> --fork-session (new session id, same history)',
    history: "$CLAUDE_CONFIG_DIR (the coder's own under isolation 'strict', else ~/.claude)/projects/<dir>/<id>.jsonl; title: the first prompt",
  },
  notes: [
    'Every value flag is passed as `--flag=value`: the multi-value flags (`--add-dir`, `--allowed-tools`, `--disallowed-tools`, …) would otherwise swallow what follows them.',
    'API errors arrive as `result` with `subtype: "success"` and `is_error: true`; the SDK reports them as errors typed from `api_error_status` (401 → auth, 429 → rate_limit, 5xx/529 → server).',
    'Running as root, `permissionPolicy.mode: "bypass"` makes the CLI exit at once unless `IS_SANDBOX=1` is set: the SDK refuses it before spawning, with that advice (`extraEnv: { IS_SANDBOX: "1" }`).',
    'After `--resume` or a fork, `total_cost_usd` covers the whole session while `result.usage` covers this run: `RunResult.usage.costUsd` is this run\'s share.',
    'With `--json-schema` the CLI adds a `StructuredOutput` tool; a model that answers in prose anyway ends in `success` without `structured_output`, which the SDK reports as `invalid_output`.',
    'The original table\'s `forkSession` option is the session method `fork()` (`--resume=<id> --fork-session`), so it cannot be combined with a plain resume by mistake.',
    'The CLI retries 5xx/429/401 itself (10 times by default, ~3 minutes); `extraEnv: { CLAUDE_CODE_MAX_RETRIES: "2" }` bounds it.',
  ],
};
