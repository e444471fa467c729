// One ACP client, many agents: an agent's preset (its command line, capabilities and habits) becomes
// the LiveSpec the live host drives. Everything protocol-shaped is here once; a preset holds only
// what is true of its agent.
import type { FeatureSupport, InvocationContext, Invocation, LiveFeature, LiveSpec } from '../contract/adapter.js';
import type { FeatureName } from '../../options.js';
import { pickPermissionMode, type PermissionModeMapping } from '../options/permission-mode.js';
import { AcpConnection } from './client.js';
import type { AcpTranslationSpec } from './dialect.js';
import { acpPermissionCodec } from './permission.js';
import { acpLiveTranslation } from './translation.js';

/** A permission mode as ACP requests (`session/set_mode`, `session/set_config_option` …), the session id added. */
export type AcpModeRequests = ReadonlyArray<{ method: string; params: Record<string, string> }>;

export interface AcpAgentPreset {
  /** The agent's habits in its records (pure: the replay face takes this part alone). */
  translation: AcpTranslationSpec;
  /** The agent's command line and environment for its ACP mode (`ctx.prompt` is empty). */
  buildInvocation(ctx: InvocationContext): Promise<Omit<Invocation, 'stdin'>>;
  /** What a live session of it can do beyond `open` (which every ACP agent has). */
  capabilities: Partial<Record<LiveFeature, FeatureSupport>>;
  minVersion: string;
  /** Sent as `authenticate { methodId }` after `initialize`. */
  authMethod?: string | undefined;
  launchOnly?: readonly FeatureName[];
  notLive?: readonly FeatureName[];
  /** setPermissionMode(): the requests of each mode, and the modes that run tools unasked. */
  permissionModes?: PermissionModeMapping<AcpModeRequests>;
  /** The agent applies a mode change inside a running turn: the change waits for the turns before it. */
  permissionModeBetweenTurns?: boolean;
}

export function acpLiveSpec(preset: AcpAgentPreset): LiveSpec {
  const { agent, toolKinds } = preset.translation;
  const { permissionModes } = preset;
  return {
    ...acpLiveTranslation(preset.translation),
    capabilities: preset.capabilities,
    minVersion: preset.minVersion,
    launchOnly: preset.launchOnly ?? ['streamPartialMessages'],
    ...(preset.notLive ? { notLive: preset.notLive } : {}),
    buildInvocation: (ctx) => preset.buildInvocation(ctx),
    async connect(rpc, ctx) {
      const connection = new AcpConnection(rpc, { agent, authMethod: preset.authMethod, toolKinds });
      await connection.open(ctx);
      return connection;
    },
    ...(permissionModes
      ? {
          setPermissionModeRequests: (mode, opts, sessionId) => pickPermissionMode(agent, permissionModes, mode, opts).map(({ method, params }) => ({ method, params: { sessionId, ...params } })),
          permissionModeBetweenTurns: preset.permissionModeBetweenTurns ?? false,
        }
      : {}),
    // Each connection answers with its own codec (it knows the options of each question); this one stands for the rest.
    permission: acpPermissionCodec(agent, toolKinds),
  };
}
