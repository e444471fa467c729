// Options are checked at the edge, before anything spawns: shape (valibot), then what this CLI supports.
import * as v from 'valibot';
import { FeatureNotInVersionError, FeatureNotSupportedError, InvalidOptionsError } from '../../errors.js';
import { requestedFeatures, type OptionFieldTable, type OptionsOf, type ResolvedOpts } from '../../options.js';
import { notAnObjectMessage } from '../../schema/option-messages.js';
import type { AdapterSpec, SessionTarget } from '../contract/adapter.js';
import { compareVersions } from '../versions/version.js';
import { checkSessionId } from '../../schema/ids.js';

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = row[j]!;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

function suggestion(key: string, known: string[]): string {
  const best = known
    .map((name) => ({ name, score: distance(key, name) }))
    .sort((a, b) => a.score - b.score)[0];
  return best && best.score <= Math.max(2, Math.floor(key.length / 3)) ? ` (did you mean "${best.name}"?)` : '';
}

/** An issue's path as dotted keys (`permissionPolicy.mode`, `addDirs.1`). */
function pathOf(issue: v.BaseIssue<unknown>): string[] {
  return (issue.path ?? []).map((item) => String(item.key));
}

const PARSE_CONFIG = { abortEarly: false, abortPipeEarly: true } as const;

/**
 * Parses one layer of options key by key, each against its option's schema (built when first named),
 * as the layer's strict object schema would: the options' issues in the table's order, then every key
 * it does not know, each with the closest known key when there is one.
 */
export function parseOptions<F extends OptionFieldTable>(table: F, value: unknown, where: string): OptionsOf<F> {
  const options = value ?? {};
  // valibot takes an array for an object; options never come as one.
  if (typeof options !== 'object' || Array.isArray(options)) throw new InvalidOptionsError([`(options): ${notAnObjectMessage(options)}`]);
  const given = options as Record<string, unknown>;
  const parsed: Record<string, unknown> = {};
  const issues: string[] = [];
  for (const key in table) {
    if (!(key in given)) continue;
    const result = v.safeParse(table[key]!(), given[key], PARSE_CONFIG);
    if (result.success) {
      parsed[key] = result.output;
      continue;
    }
    for (const issue of result.issues) {
      const path = [key, ...pathOf(issue)].join('.');
      issues.push(issue.type === 'strict_object' && issue.expected === 'never' ? `unknown option "${path}" in ${where}` : `${path}: ${issue.message}`);
    }
  }
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(table, key)) issues.push(`unknown option "${key}" in ${where}${suggestion(key, Object.keys(table))}`);
  }
  if (issues.length > 0) throw new InvalidOptionsError(issues);
  return parsed as OptionsOf<F>;
}

/**
 * The flags an argument may name: `--flag=value` → `--flag`; a single-dash token both whole (pi's own
 * `-xt`, `-nt` aliases) and as a cluster of short flags, letter by letter up to the first other
 * character (clap and commander read `-sC<dir>` as `-s -C <dir>`, copilot 1.0.102). A letter of an
 * attached value counts too (`-ofile` holds `-i`): such a value goes as `--long-flag=value` instead.
 * A bare word names itself, for the subcommands an adapter owns (codex's `resume <thread>`).
 */
function flagNames(arg: string): string[] {
  if (arg === '--' || !arg.startsWith('-')) return [arg];
  if (arg.startsWith('--')) return [arg.split('=')[0]!];
  const cluster = /^-([A-Za-z]+)/.exec(arg)?.[1];
  if (!cluster) return [];
  return [`-${arg.slice(1).split('=')[0]!}`, ...[...cluster].map((letter) => `-${letter}`)];
}

/** extraArgs must not repeat or contradict what the adapter sets itself. */
function checkExtraArgs(adapter: AdapterSpec, extraArgs: readonly string[]): void {
  const owned = new Set(adapter.ownedFlags ?? []);
  const refused = [...new Set(extraArgs.flatMap(flagNames).filter((flag) => owned.has(flag)))];
  if (refused.length === 0) return;
  throw new InvalidOptionsError(
    refused.map((flag) => `extraArgs: ${flag} is set by the ${adapter.name} adapter itself; use the matching option instead (adapters.md)`),
    adapter.name,
  );
}

/** Throws FeatureNotSupportedError for the first option this CLI cannot honour. */
export function checkSupport(adapter: AdapterSpec, opts: ResolvedOpts, session: SessionTarget): void {
  // Every run's target, so an id the CLI printed (a later turn's resume, a fork) is checked as a caller's is.
  if (session.kind === 'resume' || session.kind === 'fork') checkSessionId(session.sessionId, `the session id to ${session.kind}`, adapter.name);
  for (const feature of requestedFeatures(opts)) {
    if (adapter.capabilities[feature]) continue;
    const hint = adapter.insteadHints?.[feature] ?? `Remove "${feature}" for ${adapter.name}; adapters.md lists which CLIs support it.`;
    throw new FeatureNotSupportedError(adapter.name, feature, hint);
  }
  if (opts.extraArgs) checkExtraArgs(adapter, opts.extraArgs);
  adapter.validate?.(opts, session);
}

/** Throws FeatureNotInVersionError for the first option (or a fork) this CLI version does not have yet. */
export function checkVersionedSupport(adapter: AdapterSpec, opts: ResolvedOpts, session: SessionTarget, version: string | undefined): void {
  if (version === undefined) return;
  if (session.kind === 'fork' && adapter.forkSince !== undefined && compareVersions(version, adapter.forkSince) < 0) {
    throw new FeatureNotInVersionError(adapter.name, 'fork', version, adapter.forkSince);
  }
  for (const feature of requestedFeatures(opts)) {
    const since = adapter.capabilities[feature]?.since;
    if (since !== undefined && compareVersions(version, since) < 0) throw new FeatureNotInVersionError(adapter.name, feature, version, since);
  }
  const value = adapter.valueSince?.(opts);
  if (value && compareVersions(version, value.since) < 0) throw new FeatureNotInVersionError(adapter.name, value.option, version, value.since);
}
