// Claude Code (`@anthropic-ai/claude-code`), driven headless with stream-json output.
import type { AdapterSpec, ExitInfo } from '../../core/adapter.js';
import type { ErrorCode } from '../../errors.js';
import { buildClaudeInvocation, bypassAsRootMessage, validateClaudeOptions } from './argv.js';
import { claudeCapabilities, claudeInsteadHints } from './capabilities.js';
import { claudeDocs } from './docs.js';
import { claudeLive } from './live.js';
import { claudePermission } from './permission.js';
import { createClaudeTranslator } from './translate.js';

/** Failures the CLI explains only on stderr, before any stdout record. */
function explainClaudeExit(exit: ExitInfo): { code: ErrorCode; message: string } | undefined {
  const stderr = exit.stderrTail;
  if (/cannot be used with root\/sudo privileges/i.test(stderr)) return { code: 'invalid_options', message: bypassAsRootMessage };
  if (/requires --verbose|unknown option|error: option/i.test(stderr)) {
    return { code: 'version_unsupported', message: 'claude rejected its command line; is the installed version supported?' };
  }
  if (/No conversation found with session ID/i.test(stderr)) {
    return { code: 'invalid_options', message: 'claude found no session with that id (resume needs the same config dir and working directory).' };
  }
  return undefined;
}

export const claudeAdapter: AdapterSpec<'claude'> = {
  name: 'claude',
  binary: 'claude',
  installHint: 'Install it with `npm install @anthropic-ai/claude-code`, or pass executablePath.',
  versions: { min: '2.1.197', testedMax: '2.1.332' },
  parseVersion: (output) => /(\d+\.\d+\.\d+)/.exec(output)?.[1],
  capabilities: claudeCapabilities,
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
  // Allowed by name rather than bypass mode, which the CLI refuses as root.
  probe: {
    shellCall: (command) => ({ name: 'Bash', input: { command, description: 'coderline probe' } }),
    shellEventName: 'Bash',
    failedRunExit: 'non-zero',
    toolOpts: { permissionPolicy: { allow: ['Bash'] } },
  },
  canFork: true,
  buildInvocation: buildClaudeInvocation,
  explainExit: explainClaudeExit,
  createTranslator: createClaudeTranslator,
  permissionPromptTool: claudePermission,
  live: claudeLive,
};
