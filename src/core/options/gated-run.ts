// Whether a run has a gate on its tool uses. The CLIs load config from the repository they work in
// (settings that allow tools, hooks and extensions that run code); adapters keep that out of a gated run,
// since a cloned repository could otherwise act past the gate.
import type { ResolvedOpts } from '../../options.js';

/** True with canUseTool, permissionPolicy allow/deny rules or denied kinds, or plan mode (read-only is a gate too). */
export function gatedRun(opts: ResolvedOpts): boolean {
  const policy = opts.permissionPolicy;
  return opts.canUseTool !== undefined || Boolean(policy?.allow?.length || policy?.deny?.length || policy?.denyKinds?.length) || policy?.mode === 'plan';
}
