// Gemini's live mode: `gemini --acp` (Agent Client Protocol v1) on the shared ACP client
// (core/acp/), one process for many turns. Gemini's own truth: the one-shot command line with its
// settings file, home and GEMINI_CLI_NO_RELAUNCH (argv.ts: one process, which honours SIGTERM),
// with `--acp` in place of the stream-json output; its token counts (acp-translate.ts); and
// what 0.61.0 gets wrong over ACP. Probed on 0.61.0 (cli-notes/gemini.md "ACP"; test/gemini/live.e2e.test.ts).
import type { LiveSpec } from '../../core/contract/adapter.js';
import { acpLiveSpec } from '../../core/acp/live-spec.js';
import { FeatureNotSupportedError } from '../../errors.js';
import { geminiAcpTranslation } from './acp-translate.js';
import { baseArgs, buildGeminiInvocation } from './argv.js';
import { geminiLiveMinVersion } from './versions.js';
import { native } from '../../core/contract/adapter.js';


export const geminiLive: LiveSpec = acpLiveSpec({
  translation: geminiAcpTranslation,
  capabilities: {
    open: native('gemini --acp (Agent Client Protocol v1): initialize, session/new, then a session/prompt request per turn; its answer ends the turn'),
    interrupt: native('session/cancel notification: the prompt answers cancelled, the process stays'),
  },
  // The oldest version from which the sweep's live canaries pass (docs/compat.md).
  minVersion: geminiLiveMinVersion,
  // Not verified over ACP: the prompt-based schema is a one-shot mechanism, files go as @path
  // references in the one-shot prompt (images go as ACP image blocks), session ids and the turn
  // limit are one-shot settings.
  notLive: ['outputSchema', 'sessionId', 'files', 'maxTurns'],
  async buildInvocation(ctx) {
    // 0.61.0's session/load first resets the stored session, then answers "No previous sessions found":
    // the session would be lost.
    if (ctx.session.kind !== 'new') {
      throw new FeatureNotSupportedError('gemini', 'open(options, { sessionId })', 'gemini 0.61.0 loses a session it is asked to load over ACP (session/load resets it); continue it one-shot with coder.resume(id).run().');
    }
    const { args, env } = await buildGeminiInvocation(ctx);
    return { args: ['--acp', ...args.slice(baseArgs.length)], env };
  },
});
