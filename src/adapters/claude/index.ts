// Claude Code (`@anthropic-ai/claude-code`), driven headless with stream-json output.
import type { AdapterSpec, ExitInfo } from '../../core/contract/adapter.js';
import type { ErrorCode } from '../../errors.js';
import { buildClaudeInvocation, bypassAsRootMessage, validateClaudeOptions } from './argv.js';
import { claudeCapabilities, claudeInsteadHints, claudeOwnedFlags } from './capabilities.js';
import { claudeDocs } from './docs.js';
import { claudeLive } from './live.js';
import { claudePermission } from './permission.js';
import { claudeToolCatalog } from './tool-facts.js';
import { claudeTranslation } from './translation.js';
import { claudeUserInput } from './user-input.js';
import { claudeVersions } from './versions.js';
import { claudeSessionStore } from './store.js';
import { claudeEvents } from './events.js';

/** Failures the CLI explains only on stderr, before any stdout record. */
function explainClaudeExit(exit: ExitInfo): { code: ErrorCode; message: string } | undefined {
  const stderr = exit.stderrTail;
  if (/cannot be used with root\/sudo privileges/i.test(stderr)) return { code: 'invalid_options', message: bypassAsRootMessage };
  if (/requires --verbose|unknown option|error: option/i.test(stderr)) {
    return { code: 'version_unsupported', message: 'claude rejected its command line; is the installed version supported?' };
  }
  const missing = /No conversation found with session ID:?\s*(\S*)/i.exec(stderr);
  if (missing) {
    return { code: 'session_not_found', message: `claude found no session "${missing[1]}" (resume needs the same config dir and working directory).` };
  }
  return undefined;
}

export const claudeAdapter: AdapterSpec<'claude'> = {
  name: 'claude',
  binary: 'claude',
  installHint: 'Install it with `npm install @anthropic-ai/claude-code`, or pass executablePath.',
  npmPackage: '@anthropic-ai/claude-code',
  versions: claudeVersions,
  parseVersion: (output) => /(\d+\.\d+\.\d+)/.exec(output)?.[1],
  capabilities: claudeCapabilities,
  events: claudeEvents,
  ownedFlags: claudeOwnedFlags,
  insteadHints: claudeInsteadHints,
  validate: validateClaudeOptions,
  // `result.usage` and `total_cost_usd` cover this process only, also after --resume.
  usageIsCumulative: false,
  docs: claudeDocs,
  // From the CLI's documentation and its installed files (docs/cli.md).
  auth: {
    variables: ['CLAUDE_CODE_USE_BEDROCK', 'CLAUDE_CODE_USE_VERTEX', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN'],
    storedLogin: '`claude` login in CLAUDE_CONFIG_DIR or ~/.claude',
  },
  environment: {
    // Set by Claude Code for the processes it starts: a nested claude would take itself for a sub-process.
    denied: ['CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT', 'CLAUDE_CODE_SSE_PORT'],
    minimal: [
      'CLAUDE_CONFIG_DIR', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_MODEL', 'CLAUDE_CODE_MAX_RETRIES', 'API_TIMEOUT_MS',
      'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC', 'DISABLE_TELEMETRY', 'DISABLE_AUTOUPDATER', 'DISABLE_ERROR_REPORTING',
    ],
  },
  // Allowed by name rather than bypass mode, which the CLI refuses as root.
  probe: {
    shellCall: (command) => ({ name: 'Bash', input: { command, description: 'coderline probe' } }),
    shellEventName: 'Bash',
    failedRunExit: 'non-zero',
    toolOpts: { permissionPolicy: { allow: ['Bash'] } },
    // --json-schema offers the model a StructuredOutput tool; its input is the answer.
    structuredAnswer: (value) => [{ toolCalls: [{ name: 'StructuredOutput', input: value }] }, { text: 'Submitted.' }],
    // TodoWrite, the whole list as its input: offered again with the tasks switched off.
    plan: {
      call: (items) => ({ name: 'TodoWrite', input: { todos: items.map(({ content, status }) => ({ content, status, activeForm: content })) } }),
      opts: { extraEnv: { CLAUDE_CODE_ENABLE_TASKS: '0' } },
    },
    // The `agents` option's subagent, started in the foreground; it runs Bash.
    subagent: {
      call: (description, prompt) => ({ name: 'Agent', input: { description, prompt, subagent_type: 'prober', run_in_background: false } }),
      opts: { agents: { prober: { description: 'Runs the probe command', prompt: 'You run commands.' } }, permissionPolicy: { allow: ['Bash'] } },
      phases: ['started', 'completed'],
      innerEvents: true,
    },
    // `/compact` on a resumed session of two exchanges (2.1.197 refuses to compact a single one).
    compaction: {
      before: 'Remember the word apricot.',
      prompt: '/compact',
      script: [{ text: 'Checking.', toolCalls: [{ name: 'Bash', input: { command: 'echo apricot', description: 'coderline probe' } }] }, { text: 'Noted: apricot.' }, { text: '<summary>The user asked to remember apricot.</summary>' }],
      opts: { permissionPolicy: { allow: ['Bash'] } },
      phases: ['started', 'completed'],
      tokens: true,
    },
  },
  canFork: true,
  buildInvocation: buildClaudeInvocation,
  explainExit: explainClaudeExit,
  createTranslator: claudeTranslation.createTranslator,
  toolCatalogs: [claudeToolCatalog],
  permissionPromptTool: claudePermission,
  userInputPromptTool: claudeUserInput,
  live: claudeLive,
  sessionStore: claudeSessionStore,
};
