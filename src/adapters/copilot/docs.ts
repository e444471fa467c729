// What adapters.md says about the Copilot CLI beyond the capability table (verified on 1.0.102).
import type { AdapterDocs } from '../../core/contract/adapter.js';

export const copilotDocs: AdapterDocs = {
  invocation: 'copilot --output-format json --no-ask-user --usage-output-file <tmp> …  (prompt on stdin, no -p)',
  sessions: {
    resume: '--resume=<id>',
    resumeLatest: '--continue',
    fork: 'not supported (FeatureNotSupportedError)',
    history: "$COPILOT_HOME (the coder's own under isolation 'strict')/session-state/<id>/events.jsonl; title: the first prompt; a resumed session's usage so far from its last session.shutdown",
  },
  notes: [
    'A gated run (canUseTool, permissionPolicy allow/deny or plan mode) sets COPILOT_ALLOW_ALL=false (an inherited "true" auto-approves every tool and trusts the working directory) and fails fast with FeatureNotSupportedError in a folder the user\'s trustedFolders holds, unless isolation is \'strict\': Copilot has no flag to withhold that trust for one run, and 1.0.102 ran a trusted repository\'s .github/hooks and .github/copilot/settings.json hooks (sessionStart, userPromptSubmitted, preToolUse: shell commands) past permissionPolicy.deny.',
    'The prompt goes on stdin: with `-p` absent the CLI reads piped stdin as the prompt.',
    '`--reasoning-effort` is the documented flag (`--effort` is a hidden alias); all seven levels are accepted.',
    'The process exit code is the truth: after SIGINT/SIGTERM the `result` record still says `exitCode: 0`.',
    'Token counts are not on stdout (the `result` record has premium requests and timings, in that `usage` event\'s `extra`, with zero tokens). They come from the file `--usage-output-file` makes the CLI write at exit: a second `usage` event after `done`, this run\'s share of the session total the file holds. A run killed before its exit has none. Copilot before 1.0.85 has no such flag (it exits 1 on it): there the adapter leaves it out and runs report no token counts.',
    'Retries repeat the turn\'s deltas: a `message` event with `reset: true` tells delta consumers to start over; `RunResult.text` comes from the final messages.',
    '`copilot` on PATH is a Node launcher that runs the real binary as a child: only a process-group kill stops both.',
    'With `--available-tools`, `--excluded-tools` is ignored.',
  ],
};
