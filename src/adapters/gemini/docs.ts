// What adapters.md says about the Gemini CLI beyond the capability table (verified on 0.61.0).
import type { AdapterDocs } from '../../core/contract/adapter.js';

export const geminiDocs: AdapterDocs = {
  invocation: 'gemini --output-format stream-json --approval-mode=<mode> …  (prompt on stdin, no -p; GEMINI_CLI_NO_RELAUNCH=true)',
  sessions: {
    resume: '--resume=<uuid>',
    resumeLatest: '--resume=latest',
    fork: 'not supported (FeatureNotSupportedError)',
    history: "$GEMINI_CLI_HOME of the host, else HOME (the coder's state dir under isolation 'strict'): .gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl (the working directory in .gemini/tmp/<project>/.project_root); title: the first prompt",
  },
  notes: [
    "Every run gets its own GEMINI_CLI_HOME in its private temp dir, holding the run's settings.json (0600): telemetry, usage statistics, IDE and update checks off, the auth type the environment implies (an API key with GOOGLE_GEMINI_BASE_URL would otherwise be `gateway`, exit 41), the tool bridge, tool rules and the turn limit. Chats and history link to the user's Gemini home (the host's GEMINI_CLI_HOME, else HOME; the coder's state dir under isolation 'strict'), so sessions resume from any coder as the CLI's own do. 0.61.0 skips a system settings file below a world-writable dir such as /tmp, so none is used; the user's ~/.gemini/settings.json and stored login are not read: authenticate with variables, pass settings as geminiSettings.",
    'Folder trust is decided by the adapter: the working directory is trusted (the CLI runs headless in no other, exit 55), so its .gemini/ (settings with hooks, MCP servers, tool rules; policies) and the first .env up from it load. A gated run (permissionPolicy allow/deny or plan mode) fails fast with FeatureNotSupportedError where any of those exist.',
    '`gemini` relaunches itself as a child process whose parent ignores SIGTERM; GEMINI_CLI_NO_RELAUNCH=true keeps it one process, and the core stops the whole process group.',
    'The exit code is not the outcome: `result.status` is (exit 0 with status error after a broken stream; exit 0 and no result after SIGTERM). API errors exit with the HTTP status & 0xFF (401 → 145); the code is read from `[API Error: {…}]`.',
    'Assistant text arrives only as deltas; the adapter closes a message at each tool call and at the end, and the answer is the text after the last tool result. Thoughts are not printed (their tokens are inside output_tokens). A retried broken stream repeats its partial deltas.',
    'In the default approval mode the CLI offers no shell or write tools headless (a call is `tool_not_registered`); allow rules offer and run them, plan mode allows writes only to its plans dir.',
    'Retries of 429/5xx are silent on stdout and take minutes (10 attempts); a hung model request waits 60 s for headers per attempt: stallTimeoutMs bounds it.',
    'tools.allowed and tools.exclude are deprecated in 0.61.0 in favour of policy files (a warning on stderr) and still honoured.',
  ],
};
