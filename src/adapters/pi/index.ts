// The pi coding agent (`pi`, packages @earendil-works/pi-coding-agent ≥ 1.0 on Node ≥ 22.19 and
// @mariozechner/pi-coding-agent 0.73+), driven as `pi --mode json --print` with the prompt on stdin.
import type { AdapterSpec, ExitInfo } from '../../core/contract/adapter.js';
import { isPdf } from '../../core/options/attachments.js';
import { rulesSplitByCli } from '../../core/options/flags.js';
import { FeatureNotSupportedError, InvalidOptionsError, type ErrorCode } from '../../errors.js';
import { buildPiInvocation } from './argv.js';
import { gatedRun } from '../../core/options/gated-run.js';
import { NO_APPROVE_SINCE, piCapabilities, piInsteadHints, piOwnedFlags, THINKING_MAX_SINCE } from './capabilities.js';
import { piDocs } from './docs.js';
import { piLive } from './live.js';
import { piToolCatalog } from './tool-facts.js';
import { piTranslation } from './translation.js';
import { piVersions } from './versions.js';
import { piSessionStore } from './store.js';
import { piEvents } from './events.js';

/** Failed exits whose stderr says why. pi exits 1 on these before any JSON line. */
export function explainPiExit(exit: ExitInfo): { code: ErrorCode; message: string } | undefined {
  const stderr = exit.stderrTail;
  // Printed by the tool-bridge extension (argv.ts) when pi lacks registerMcpServer (before 0.99).
  const toolsTooOld = /custom tools need pi >= [\d.]+[^\n]*/.exec(stderr);
  if (toolsTooOld) return { code: 'version_unsupported', message: toolsTooOld[0] };
  const unknownOption = /Unknown option:?\s*(\S+)/i.exec(stderr);
  if (unknownOption) {
    return {
      code: 'version_unsupported',
      message: `this pi does not know ${unknownOption[1]} (it is a pi 1.x flag); upgrade to @earendil-works/pi-coding-agent`,
    };
  }
  const noSession = /No session found matching '([^']*)'/.exec(stderr);
  if (noSession) return { code: 'session_not_found', message: `pi found no session "${noSession[1]}" in its session dir (resume and fork look in --session-dir / the agent dir, per working directory)` };
  if (/No API key found/i.test(stderr)) return { code: 'auth', message: 'pi has no API key for the selected model' };
  // pi 1.x on Node < 22.19 dies while loading: `node:module` lacks `enableCompileCache`.
  if (/enableCompileCache|does not provide an export named|requires Node/i.test(stderr)) {
    return { code: 'version_unsupported', message: 'pi 1.x needs Node >= 22.19: put a Node 22 first on PATH (extraEnv.PATH)' };
  }
  return undefined;
}

export const piAdapter: AdapterSpec<'pi'> = {
  name: 'pi',
  binary: 'pi',
  installHint:
    'Install it with `npm install -g @earendil-works/pi-coding-agent` (needs Node >= 22.19; on Node 20 use @mariozechner/pi-coding-agent@0.73), or pass executablePath.',
  npmPackage: '@earendil-works/pi-coding-agent',
  versions: piVersions,
  // A line that is only the version: on a too-old Node the output is a stack trace naming Node's.
  parseVersion: (output) => /^v?(\d+\.\d+\.\d+(?:-[\w.]+)?)\s*$/m.exec(output)?.[1],
  capabilities: piCapabilities,
  events: piEvents,
  ownedFlags: piOwnedFlags,
  // 'max' first: its version is the newer one, so a pi that has it has --no-approve too. A gated run
  // passes --no-approve (argv.ts), which pi 0.73 lacks: it would exit 1 on it.
  valueSince: (opts) =>
    opts.reasoningEffort === 'max'
      ? { option: "reasoningEffort 'max'", since: THINKING_MAX_SINCE }
      : gatedRun(opts)
        ? { option: 'canUseTool, permissionPolicy allow/deny or plan mode (a gated run ignores the repository\'s .pi/ with --no-approve)', since: NO_APPROVE_SINCE }
        : undefined,
  insteadHints: piInsteadHints,
  validate(opts, session) {
    // pi reads a --session / --fork value ending in .jsonl as a file path (from its cwd) and writes the
    // session there (1.6.0, resolveSessionPath); the core's id rule already keeps `/` out.
    if ((session.kind === 'resume' || session.kind === 'fork') && session.sessionId.endsWith('.jsonl')) {
      throw new InvalidOptionsError([`the session id to ${session.kind}: "${session.sessionId}" ends in .jsonl, which pi opens as a file path, not an id`], 'pi');
    }
    // --tools and --exclude-tools are comma lists to pi (1.6.0): "read,bash" would allow bash.
    const split = rulesSplitByCli({ allowedTools: opts.allowedTools, 'permissionPolicy.allow': opts.permissionPolicy?.allow, 'permissionPolicy.deny': opts.permissionPolicy?.deny }, /,/, 'pi');
    if (split.length) throw new InvalidOptionsError(split, 'pi');
    // pi inlines an @file as text, a PDF's bytes too: the model would read raw PDF syntax.
    const pdf = opts.files?.find(isPdf);
    if (pdf) throw new FeatureNotSupportedError('pi', 'files', `pi reads "${pdf}" as plain text (it has no PDF attachments); extract its text into a .txt or .md file and attach that.`);
  },
  // Each assistant message_end carries that model call's usage only.
  usageIsCumulative: false,
  docs: piDocs,
  auth: {
    variables: ['ANTHROPIC_OAUTH_TOKEN', 'ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GEMINI_API_KEY', 'OPENROUTER_API_KEY', 'GROQ_API_KEY', 'XAI_API_KEY', 'MISTRAL_API_KEY', 'DEEPSEEK_API_KEY'],
    storedLogin: '`pi` /login in ~/.pi/agent/auth.json (or keys in its models.json)',
  },
  environment: {
    minimal: ['PI_CODING_AGENT_DIR', 'PI_CODING_AGENT_SESSION_DIR', 'PI_OFFLINE', 'PI_TELEMETRY'],
  },
  // pi asks no one: its bash tool runs whatever the model sends.
  probe: {
    shellCall: (command) => ({ name: 'bash', input: { command } }),
    shellEventName: 'bash',
    // In JSON mode a failed model call still exits 0 (see the docs notes).
    failedRunExit: 'zero',
  },
  canFork: true,
  buildInvocation: (ctx) => buildPiInvocation(ctx),
  explainExit: explainPiExit,
  createTranslator: piTranslation.createTranslator,
  toolCatalogs: [piToolCatalog],
  live: piLive,
  sessionStore: piSessionStore,
};
