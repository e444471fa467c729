// setPermissionMode() in a live session: each CLI maps the SDK's modes onto what its protocol can
// switch, and names the modes under which it would run tools without asking, which a session with
// canUseTool refuses (no mode change may let a tool use run that the callback never saw).
import { InvalidOptionsError } from '../../errors.js';
import type { ResolvedOpts } from '../../options.js';

export type PermissionModeName = NonNullable<ResolvedOpts['permissionMode']>;

export interface PermissionModeMapping<T> {
  /** What each mode the CLI can express becomes in its protocol. */
  modes: Partial<Record<PermissionModeName, T>>;
  /** Modes under which the CLI runs tools without asking. */
  unasked: readonly PermissionModeName[];
}

/** What `mode` becomes for `cli`; throws InvalidOptionsError, before anything is sent, when it cannot be used. */
export function pickPermissionMode<T>(cli: string, mapping: PermissionModeMapping<T>, mode: string, opts: ResolvedOpts): T {
  const known = Object.keys(mapping.modes);
  if (!known.includes(mode)) {
    throw new InvalidOptionsError([`setPermissionMode("${mode}"): a ${cli} live session can switch to ${known.map((name) => `"${name}"`).join(', ')}`], cli);
  }
  if (opts.canUseTool && mapping.unasked.includes(mode as PermissionModeName)) {
    throw new InvalidOptionsError([`setPermissionMode("${mode}"): ${cli} runs tools without asking in that mode, so canUseTool would not see them; open a session without canUseTool for it`], cli);
  }
  return mapping.modes[mode as PermissionModeName] as T;
}
