// OpenCode's live mode: `opencode acp` (Agent Client Protocol v1) on the shared ACP client
// (core/acp/), one process for many turns. OpenCode's own truth: the one-shot environment (argv.ts:
// PWD, its switches, the store, the private config and the permissions), the model in the private
// config (ACP's session/new takes none), and with canUseTool every permission set to `ask`, so each
// tool call comes to the host as session/request_permission. `acp` serves its API on a loopback port
// as well: a per-session password keeps other local programs from driving it (or answering its asks).
// Measured on 1.18.33 (docs/decisions.md; test/opencode/live.e2e.test.ts).
import { randomBytes } from 'node:crypto';
import type { LiveSpec } from '../../core/contract/adapter.js';
import { acpLiveSpec } from '../../core/acp/live-spec.js';
import { bridgedServers } from '../../core/tools/mcp-servers.js';
import { opencodeAcpTranslation } from './acp-translate.js';
import { opencodeEnv } from './argv.js';
import { opencodeLiveMinVersion } from './versions.js';
import { native } from '../../core/contract/adapter.js';


export const opencodeLive: LiveSpec = acpLiveSpec({
  translation: opencodeAcpTranslation,
  capabilities: {
    open: native('opencode acp --cwd=<dir> --hostname=127.0.0.1 (Agent Client Protocol v1): initialize, session/new or session/load, then a session/prompt request per turn; its answer ends the turn'),
    interrupt: native('session/cancel notification: the prompt answers cancelled, the process stays'),
  },
  minVersion: opencodeLiveMinVersion,
  // One-shot mechanisms (the prompt-based schema, --file for files, --variant, run's flags), not
  // verified over ACP; images go as ACP image blocks.
  notLive: ['outputSchema', 'files', 'reasoningEffort', 'extraArgs'],
  async buildInvocation(ctx) {
    const { opts } = ctx;
    // Every tool asks but those at the tool bridge, which asks on the host itself (never twice);
    // the policy's allow and deny rules, set after, win over both.
    const bridged = Object.fromEntries(bridgedServers(ctx.toolBridge).map((server) => [`${server.name}_*`, 'allow']));
    const env = await opencodeEnv(ctx, {
      ...(opts.canUseTool ? { permissionBase: { '*': 'ask', ...bridged } } : {}),
      ...(opts.model ? { extraConfig: { model: opts.model } } : {}),
    });
    env.OPENCODE_SERVER_PASSWORD = randomBytes(24).toString('base64url');
    return { args: ['acp', `--cwd=${ctx.cwd}`, '--hostname=127.0.0.1'], env };
  },
});
