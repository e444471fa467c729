// The secret values of a run, and their redaction from what leaves the SDK (events, error messages,
// recordings, and through them spans). A run knows its secrets: the values of extraEnv, of its MCP
// servers' env and headers, of codexConfig and copilotAdditionalMcpConfig, the values in extraArgs, the
// CLI's own auth variables and the tool bridge's per-run secret. Each is replaced by `<redacted>`
// wherever it appears, as printed, JSON-escaped (how it shows inside a record the CLI printed) or
// percent-encoded (inside a URL).
import { existsSync } from 'node:fs';
import type { TranslatedEvent } from '../../events.js';
import type { ResolvedOpts } from '../../options.js';
import type { AdapterSpec } from '../contract/adapter.js';

export const REDACTED = '<redacted>';

/**
 * Shorter values are left in text: replacing `1`, `on` or `fake` everywhere would wreck the output and
 * hide nothing (docs/cli.md, "Secrets"). Where the options themselves are written (a recording's
 * header), every value is redacted, whatever its length.
 */
export const MIN_REDACTED_CHARS = 8;

/**
 * A value that names a place on this machine — an existing absolute path, or a `:` list that starts
 * with one (PATH) — is not a secret: `HOME` or `CLAUDE_CONFIG_DIR` in extraEnv shows in the CLI's
 * records, its tools' output and the run's cwd, and redacting it would garble them for nothing.
 */
function namesAPlace(value: string): boolean {
  return value.startsWith('/') && existsSync(value.split(':')[0]!);
}

/** The string leaves of a JSON-like value. */
function stringLeaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringLeaves);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringLeaves);
  return [];
}

/** `--flag=value` → value, a bare `value` → itself; a flag alone is a name. */
export function argValue(arg: string): string | undefined {
  if (!arg.startsWith('-')) return arg;
  const at = arg.indexOf('=');
  return at > 0 ? arg.slice(at + 1) : undefined;
}

/** copilotAdditionalMcpConfig is JSON text or a path (`@file`): JSON's leaves, or the whole text. */
export function parsedJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

type SecretOptions = Pick<ResolvedOpts, 'extraEnv' | 'mcpServers' | 'codexConfig' | 'copilotAdditionalMcpConfig' | 'extraArgs'>;

/**
 * Every secret value the options carry. extraEnv values of the CLI's own settings (`settings`: the
 * names its adapter lists for `inheritEnv: 'minimal'`, such as CLAUDE_CONFIG_DIR or COPILOT_MODEL) are
 * not secrets: a model name redacted from the init event would tell the caller nothing.
 */
export function optionSecrets(opts: SecretOptions, settings: readonly string[] = []): string[] {
  const copilot = opts.copilotAdditionalMcpConfig;
  return [
    ...Object.entries(opts.extraEnv ?? {}).flatMap(([name, value]) => (settings.includes(name) ? [] : [value])),
    ...Object.values(opts.mcpServers ?? {}).flatMap((server) => stringLeaves('url' in server ? server.headers : server.env)),
    ...stringLeaves(opts.codexConfig),
    ...(typeof copilot === 'string' ? stringLeaves(parsedJsonText(copilot) ?? copilot) : stringLeaves(copilot)),
    ...(opts.extraArgs ?? []).flatMap((arg) => argValue(arg) ?? []),
  ];
}

/** The values of a CLI's auth variables in the environment it gets. */
export function authSecrets(variables: readonly string[] | undefined, env: Readonly<Record<string, string | undefined>>): string[] {
  return (variables ?? []).flatMap((name) => env[name] ?? []);
}

/** Top-level event fields that name what an event is (its kind, code, phase …), never redacted. */
const EVENT_NAME_FIELDS = new Set(['type', 'provider', 'kind', 'subtype', 'code', 'phase', 'decision', 'status', 'role']);

export class Redactor {
  /** Longest first, so a secret that contains another is replaced whole. */
  private readonly needles: readonly string[];

  private constructor(needles: string[]) {
    this.needles = needles.sort((a, b) => b.length - a.length);
  }

  /** A redactor for these values, or undefined when none is long enough to be redacted in text. */
  static of(values: Iterable<string>): Redactor | undefined {
    const needles = new Set<string>();
    for (const value of values) {
      if (value.length < MIN_REDACTED_CHARS || namesAPlace(value)) continue;
      needles.add(value);
      // Inside a JSON line a value with quotes, backslashes or control characters shows escaped.
      needles.add(JSON.stringify(value).slice(1, -1));
      // In a URL a CLI quotes (a proxy or base URL with credentials), it shows percent-encoded.
      needles.add(encodeURIComponent(value));
    }
    return needles.size > 0 ? new Redactor([...needles]) : undefined;
  }

  /** True when `text` holds a secret: the one check a clean line costs. */
  holds(text: string): boolean {
    for (const needle of this.needles) if (text.includes(needle)) return true;
    return false;
  }

  text(text: string): string {
    let redacted = text;
    for (const needle of this.needles) if (redacted.includes(needle)) redacted = redacted.replaceAll(needle, REDACTED);
    return redacted;
  }

  /** How many characters at the end of `text` could begin a secret (0 when none could). */
  openEnd(text: string): number {
    let longest = 0;
    for (const needle of this.needles) {
      for (let length = Math.min(needle.length - 1, text.length); length > longest; length -= 1) {
        if (text.endsWith(needle.slice(0, length))) {
          longest = length;
          break;
        }
      }
    }
    return longest;
  }

  /** Strings anywhere in a JSON-like value; a new object or array only where something changed. */
  value<T>(value: T): T {
    if (typeof value === 'string') return this.text(value) as T;
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      const items = value.map((item: unknown) => this.value(item));
      return (items.some((item, i) => item !== value[i]) ? items : value) as T;
    }
    const object = value as Record<string, unknown>;
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(object)) {
      const redacted = this.value(item);
      if (redacted !== item) (copy ??= { ...object })[key] = redacted;
    }
    return (copy ?? value) as T;
  }

  /** An event with its content redacted (text, input, output, raw …), its naming fields as they were. */
  event<E extends TranslatedEvent>(event: E): E {
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(event)) {
      if (EVENT_NAME_FIELDS.has(key)) continue;
      const redacted = this.value(item);
      if (redacted !== item) (copy ??= { ...event })[key] = redacted;
    }
    return (copy ?? event) as E;
  }
}

/** The redactor of a run: its options' secrets, the CLI's auth variables in its environment, the bridge's secret. */
export function runRedactor(
  opts: SecretOptions,
  cli: Pick<AdapterSpec, 'auth' | 'environment'>,
  env: Readonly<Record<string, string | undefined>>,
  bridgeSecret?: string,
): Redactor | undefined {
  const secrets = [...optionSecrets(opts, cli.environment?.minimal), ...authSecrets(cli.auth?.variables, env)];
  return Redactor.of(bridgeSecret === undefined ? secrets : [...secrets, bridgeSecret]);
}

/**
 * Events whose content need not come from the line they were translated with (a final answer joined
 * from earlier records, an error, a permission question from the bridge, the SDK's own notices): redacted
 * whether or not that line held a secret.
 */
export function redactedAlways(event: TranslatedEvent): boolean {
  return event.type === 'done' || event.type === 'error' || event.type === 'permission' || event.raw === null;
}

type DeltaEvent = Extract<TranslatedEvent, { type: 'message' | 'reasoning' }>;

const restarts = (event: DeltaEvent) => event.type === 'message' && event.reset === true;

/**
 * The text deltas of one run or turn, with a secret split across two of them redacted too (a model
 * streams a token in pieces; a consumer joins them). A delta whose text could end in the start of a
 * secret waits for the next delta of its kind: if together they hold a secret, they go as one event,
 * its text redacted and `raw: null` (each line's raw would show a piece of the secret); else they go
 * as they came. What waits is let go before any other event, or when the stream ends.
 */
export interface DeltaRedaction {
  /** The events to pass on now for `event` (none while a delta waits). */
  push(event: TranslatedEvent): TranslatedEvent[];
  /** What still waits, when the stream has ended without another event. */
  flush(): TranslatedEvent[];
}

export function deltaRedaction(redactor: Redactor): DeltaRedaction {
  const pending = new Map<DeltaEvent['type'], { events: DeltaEvent[]; text: string }>();
  const release = (): TranslatedEvent[] => {
    const released = [...pending.values()].flatMap(({ events }) => events);
    pending.clear();
    return released;
  };
  const push = (event: TranslatedEvent): TranslatedEvent[] => {
    if ((event.type !== 'message' && event.type !== 'reasoning') || !event.delta) return [...release(), event];
    const held = restarts(event) ? undefined : pending.get(event.type);
    pending.delete(event.type);
    const others = release();
    const joined = (held?.text ?? '') + event.text;
    const first = held?.events[0];
    const events: DeltaEvent[] = held && redactor.holds(joined)
      ? [{ ...event, text: redactor.text(joined), raw: null, ...(first && restarts(first) ? { reset: true } : {}) }]
      : [...(held?.events ?? []), event];
    const text = events.length === 1 ? events[0]!.text : joined;
    if (redactor.openEnd(text) === 0) return [...others, ...events];
    pending.set(event.type, { events, text });
    return others;
  };
  return { push, flush: release };
}
