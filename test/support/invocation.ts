// What an adapter asks its CLI to do for `opts`, without running it: the argv, env and stdin, and the
// temp files it wrote (by name). Paths of temp files are /tmp/run/<name>.
import type { AdapterSpec, InvocationContext } from '../../src/core/contract/adapter.js';
import type { ToolBridgeInfo } from '../../src/core/contract/bridge-info.js';
import type { ResolvedOpts } from '../../src/options.js';

export async function invocationOf(adapter: AdapterSpec, opts: ResolvedOpts, toolBridge?: ToolBridgeInfo) {
  const files: Record<string, string> = {};
  const ctx: InvocationContext = {
    prompt: 'p',
    opts,
    session: { kind: 'new' },
    cwd: '/work',
    writeTempFile: async (name, content) => {
      files[name] = content;
      return `/tmp/run/${name}`;
    },
    coderStateDir: async () => '/tmp/state',
    outputJsonSchema: undefined,
    ...(toolBridge ? { toolBridge } : {}),
  };
  return { ...(await adapter.buildInvocation(ctx)), files };
}
