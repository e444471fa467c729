// The one options schema: TypeScript types, runtime validation and the docs all come from here.
// Each field's description is what docs/api.md shows. valibot, not zod: it imports in a fraction of
// the time (docs/decisions.md, docs/performance.md fix 20).
import * as v from 'valibot';
import { isJsonObject } from './schema/json.js';
import { objectMessage, oneOfMessage, optionIssueMessage } from './schema/option-messages.js';
import { jsonSchemaProblems } from './schema/json-schema.js';
import { isStandardSchema, type StandardSchemaV1 } from './schema/standard-schema.js';
import type { CanUseTool } from './permission.js';
import type { OnUserInput } from './user-input.js';
import type { CoderStreamEvent, ToolKind } from './events.js';
import { isTool, type Tool } from './tool.js';
import { toolBridgeServerName } from './schema/tool-names.js';
import { isSessionId, sessionIdRule } from './schema/ids.js';

export const reasoningEfforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export type ReasoningEffort = (typeof reasoningEfforts)[number];

/** Claude's permission modes: the names `permissionMode` and a live session's setPermissionMode() take. */
export const claudePermissionModes = ['default', 'manual', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk', 'auto'] as const;

/** A value of Codex's TOML config: what `codexConfig` takes. */
export type TomlValue = string | number | boolean | TomlValue[] | { [key: string]: TomlValue };

function isTomlValue(value: unknown): value is TomlValue {
  if (typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isTomlValue);
  if (!isJsonObject(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && Object.values(value).every(isTomlValue);
}

/** An output schema: a Standard Schema of any library (typed `output`) or a plain JSON Schema object. */
export type OutputSchema = StandardSchemaV1 | Readonly<Record<string, unknown>>;

/** An optional option with the text docs/api.md shows for it. */
function optional<const S extends v.GenericSchema>(schema: S, description: string) {
  return v.pipe(v.optional(schema), v.description(description));
}

/** Made on first use, then the same value: a run builds only the schemas of the options it is given. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** Each option's schema, built when an options object first names it (docs build them all). */
function fields<const F extends Record<string, () => v.GenericSchema>>(table: F): F {
  return Object.fromEntries(Object.entries(table).map(([key, make]) => [key, once(make)])) as F;
}

// Every schema carries its message, so the texts never depend on valibot's global settings or language.
const m = optionIssueMessage;
const fn = <T extends (...args: never[]) => unknown>(what: string) => v.custom<T>((value) => typeof value === 'function', `${what} must be a function`);
const string = once(() => v.string(m));
const nonEmpty = once(() => v.pipe(v.string(m), v.minLength(1, m)));
const sessionId = once(() => v.pipe(v.string(m), v.check((value: string) => isSessionId(value), sessionIdRule)));
const boolean = once(() => v.boolean(m));
const positiveInt = once(() => v.pipe(v.number(m), v.finite(m), v.integer(m), v.gtValue(0, m)));
const nonNegativeInt = once(() => v.pipe(v.number(m), v.finite(m), v.integer(m), v.minValue(0, m)));
const positive = once(() => v.pipe(v.number(m), v.finite(m), v.gtValue(0, m)));
const stringList = once(() => v.array(string(), m));
const picklist = <const T extends readonly string[]>(options: T) => v.picklist(options, oneOfMessage(options));
const record = <const S extends v.GenericSchema>(value: S) => v.record(string(), value, m);
const strictObject = <const E extends v.ObjectEntries>(entries: E) => v.strictObject(entries, objectMessage(entries));

const outputSchema = () => v.pipe(
  v.custom<OutputSchema>(
    (value) => isStandardSchema(value) || isJsonObject(value),
    'outputSchema must be a Standard Schema (zod, valibot, arktype, …) or a JSON Schema object',
  ),
  // A plain JSON Schema is compiled here, so a schema the SDK cannot check fails before anything runs.
  v.rawCheck<OutputSchema>(({ dataset, addIssue }) => {
    if (!dataset.typed || isStandardSchema(dataset.value) || !isJsonObject(dataset.value)) return;
    for (const problem of jsonSchemaProblems(dataset.value)) addIssue({ message: `JSON Schema ${problem}` });
  }),
);

/**
 * The tool kinds `permissionPolicy.denyKinds` takes: those whose tools an adapter's catalog names.
 * Not `mcp` (the user's own MCP config is not all fronted) nor `other` (the unknown tools).
 */
export const deniableToolKinds = ['shell', 'read', 'write', 'edit', 'search', 'list', 'fetch', 'web_search', 'task', 'plan', 'ask'] as const satisfies readonly ToolKind[];

const permissionPolicy = () => strictObject({
  mode: optional(picklist(['default', 'plan', 'bypass']), 'plan: read-only; bypass: no permission checks at all'),
  allow: optional(stringList(), 'Tools the agent may use without asking'),
  deny: optional(stringList(), 'Tools the agent must not use'),
  denyKinds: optional(v.array(picklist(deniableToolKinds), m), 'Tool kinds (tool.kind) the agent must not use: every tool of those kinds the CLI has is denied with its own flags (adapters.md, Tool kinds)'),
});

/** External MCP servers by name: a program on stdio, or a streamable HTTP endpoint. */
function mcpServers() {
  const mcpServer = v.union([
    strictObject({ command: nonEmpty(), args: v.optional(stringList()), env: v.optional(record(string())) }),
    strictObject({ url: v.pipe(v.string(m), v.regex(/^https?:\/\//, 'an MCP server url must be http(s)')), headers: v.optional(record(string())) }),
  ], m);
  const serverRecord = record(mcpServer);
  return v.pipe(
    serverRecord,
    v.rawCheck<v.InferOutput<typeof serverRecord>>(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      for (const name of Object.keys(dataset.value)) {
        if (!/^[A-Za-z0-9_-]+$/.test(name)) addIssue({ message: `MCP server name "${name}": use letters, digits, _ and -` });
        if (name === toolBridgeServerName) addIssue({ message: `MCP server name "${name}" is taken by the custom-tools bridge` });
      }
    }),
  );
}

const claudeAgent = () => strictObject({
  description: string(),
  prompt: string(),
  tools: v.optional(stringList()),
  model: v.optional(string()),
});

const tools = () => v.pipe(
  v.array(v.custom<Tool>(isTool, 'tools must be made by tool()'), m),
  v.check((list: Tool[]) => new Set(list.map((t) => t.name)).size === list.length, 'tool names must be unique'),
);

/** Options the core handles the same way for every CLI; they never need adapter support. */
const coreFields = fields({
  executablePath: () => optional(nonEmpty(), 'Path of the CLI executable, a relative one from process.cwd() (default: found on PATH)'),
  extraEnv: () => optional(record(string()), 'Variables added to the CLI environment; empty strings are kept'),
  unsetEnv: () => optional(stringList(), 'Variables removed from the CLI environment, after extraEnv'),
  inheritEnv: () => optional(v.union([picklist(['all', 'minimal']), stringList()], m),
    "What the CLI (and its shell tool) inherits of this process's environment: 'all' (default), 'minimal' (PATH, HOME, locale, temp dirs, proxies, CA certificates and the CLI's own auth and config variables; see README), or exactly the names listed. extraEnv always goes through"),
  stallTimeoutMs: () => optional(positiveInt(), 'Kill the CLI when it prints nothing for this long (default 300000)'),
  terminalGraceMs: () => optional(nonNegativeInt(), 'How long the CLI may linger after its final record before it is killed (default 3000)'),
  maxLineBytes: () => optional(positiveInt(), 'Longest stdout line accepted; longer lines become an error event (default 32 MiB)'),
  onRawLine: () => optional(fn<(line: string) => void>('onRawLine'), 'Called with every stdout line, before translation'),
  onEvent: () => optional(fn<(event: CoderStreamEvent) => void>('onEvent'), 'Called with every event as it happens'),
  permissionTimeoutMs: () => optional(positiveInt(), 'How long canUseTool may take before the tool use is denied (default 60000)'),
  userInputTimeoutMs: () => optional(positiveInt(), 'How long onUserInput may take before the agent is told nobody answered (default 300000)'),
});

/** Options that depend on the CLI: each adapter's capability data says whether and how it honours them. */
const sharedAdapterStartFields = fields({
  model: () => optional(nonEmpty(), 'Model id passed to the CLI'),
  reasoningEffort: () => optional(picklist(reasoningEfforts), 'How hard the model thinks'),
  workingDirectory: () => optional(nonEmpty(), 'The agent works here (default: process.cwd())'),
  addDirs: () => optional(stringList(), 'Extra directories the agent may access'),
  allowedTools: () => optional(stringList(), 'Tools allowed without asking (same as permissionPolicy.allow); one rule per entry: a comma (on Claude, a space too) outside parentheses is refused, the CLIs would read two'),
  permissionPolicy: () => optional(permissionPolicy(), 'Permissions in one place: a mode, plus tools to allow or deny'),
  sessionId: () => optional(sessionId(), `Id for a new session, chosen by the caller (${sessionIdRule}; claude and copilot: a UUID)`),
  systemPrompt: () => optional(string(), 'Replaces the CLI system prompt'),
  appendSystemPrompt: () => optional(string(), 'Appended to the CLI system prompt'),
  extraArgs: () => optional(stringList(), 'Flags passed to the CLI as given, for what coderline does not model yet; a flag the adapter sets itself is refused by name'),
  tools: () => optional(tools(), 'Custom tools (made by tool()) the agent can call; served to the CLI over a per-run MCP bridge'),
  mcpServers: () => optional(mcpServers(), 'External MCP servers by name: { command, args?, env? } (stdio) or { url, headers? } (streamable HTTP). The host connects to them and the custom-tools bridge serves their tools to the CLI: each call passes permissionPolicy, then canUseTool when set; env and header values never reach the CLI'),
  strictMcpConfig: () => optional(boolean(), "Only mcpServers and the custom-tools bridge: none of the MCP servers of the user's or the project's config (default false: those load too)"),
  canUseTool: () => optional(fn<CanUseTool>('canUseTool'), 'Decides each tool use the CLI asks about: allow (optionally with changed input) or deny (with a message); throwing or timing out denies'),
  onUserInput: () => optional(fn<OnUserInput>('onUserInput'), "Answers what the agent asks the user (the CLI's ask tool, MCP elicitations, a custom tool's ctx.elicit(), pi extension dialogs): { answers } by question id or { decline: true }; throwing or timing out tells the agent nobody answered"),
  isolation: () => optional(picklist(['none', 'strict']), 'strict: a private config dir per coder and no user MCP servers'),
});

/**
 * Options only one CLI has, by CLI: the type of `run`, `start` and `createCoder` for a built-in CLI leaves
 * out the other CLIs' tables, so `createCoder('claude', { codexSandbox })` is a compile error on the key.
 */
export const cliOnlyStartFields = {
  claude: fields({
    permissionMode: () => optional(picklist(claudePermissionModes), 'Claude --permission-mode'),
    settingSources: () => optional(v.array(picklist(['user', 'project', 'local']), m), 'Claude --setting-sources'),
    agents: () => optional(record(claudeAgent()), 'Claude --agents'),
    maxBudgetUsd: () => optional(positive(), 'Claude --max-budget-usd'),
    fallbackModel: () => optional(nonEmpty(), 'Claude --fallback-model: used when the model is overloaded'),
    claudeBare: () => optional(boolean(), 'Claude --bare'),
    claudeNoSessionPersistence: () => optional(boolean(), 'Claude --no-session-persistence (the session cannot be resumed)'),
  }),
  codex: fields({
    codexReasoningEffort: () => optional(picklist(reasoningEfforts), 'Legacy alias of reasoningEffort for Codex'),
    codexSandbox: () => optional(picklist(['read-only', 'workspace-write', 'danger-full-access']), 'Codex --sandbox'),
    codexNetworkAccess: () => optional(boolean(), 'Codex sandbox_workspace_write.network_access'),
    codexDisablePlugins: () => optional(boolean(), 'Codex --disable plugins'),
    codexSearch: () => optional(picklist(['disabled', 'cached', 'live']), 'Codex web_search mode'),
    codexEphemeral: () => optional(boolean(), 'Codex --ephemeral'),
    codexIgnoreUserConfig: () => optional(boolean(), 'Codex --ignore-user-config'),
    codexIgnoreRules: () => optional(boolean(), 'Codex --ignore-rules'),
    codexDangerouslyBypassApprovalsAndSandbox: () => optional(boolean(), 'Codex --dangerously-bypass-approvals-and-sandbox'),
    codexConfig: () => optional(record(v.custom<TomlValue>(isTomlValue, 'codexConfig values must be strings, finite numbers, booleans, arrays or tables of them')), 'Codex -c key=value overrides (e.g. a model provider); values are TOML: strings, numbers, booleans, arrays, tables'),
    codexImages: () => optional(stringList(), 'Legacy alias of images for Codex (--image=FILE, one per image)'),
  }),
  copilot: fields({
    copilotMode: () => optional(picklist(['interactive', 'plan', 'autopilot']), 'Copilot --mode'),
    copilotAgent: () => optional(string(), 'Copilot --agent'),
    copilotAllowUrls: () => optional(stringList(), 'Copilot --allow-url'),
    copilotDenyUrls: () => optional(stringList(), 'Copilot --deny-url'),
    copilotAvailableTools: () => optional(stringList(), 'Copilot --available-tools'),
    copilotExcludedTools: () => optional(stringList(), 'Copilot --excluded-tools'),
    copilotAdditionalMcpConfig: () => optional(v.union([string(), record(v.unknown())], m), 'Copilot --additional-mcp-config'),
  }),
  gemini: fields({
    geminiSettings: () => optional(record(v.unknown()), "Gemini settings.json keys for the run (e.g. general.maxAttempts, modelConfigs); the adapter's own keys win: telemetry, privacy, security, ide, tools and mcpServers (use the options for those)"),
  }),
  // OpenCode's options are all shared ones.
  opencode: fields({}),
  pi: fields({
    piProvider: () => optional(string(), 'Pi --provider'),
    piModels: () => optional(stringList(), 'Pi --models'),
    piNoSession: () => optional(boolean(), 'Pi --no-session'),
    piSessionDir: () => optional(string(), 'Pi --session-dir'),
    piNoContextFiles: () => optional(boolean(), 'Pi --no-context-files'),
    piNoExtensions: () => optional(boolean(), 'Pi --no-extensions'),
    piNoSkills: () => optional(boolean(), 'Pi --no-skills'),
    piNoPromptTemplates: () => optional(boolean(), 'Pi --no-prompt-templates'),
  }),
};

const adapterStartFields = { ...sharedAdapterStartFields, ...cliOnlyStartFields.claude, ...cliOnlyStartFields.codex, ...cliOnlyStartFields.copilot, ...cliOnlyStartFields.gemini, ...cliOnlyStartFields.opencode, ...cliOnlyStartFields.pi };

/** Per-run options that depend on the CLI. */
const adapterRunFields = fields({
  outputSchema: () => optional(outputSchema(), 'Structured output: the answer is parsed and validated against it'),
  strictSchema: () => optional(boolean(), 'Require the CLI to enforce outputSchema natively'),
  streamPartialMessages: () => optional(boolean(), 'Stream text and reasoning deltas as they arrive'),
  maxTurns: () => optional(positiveInt(), 'Stop after this many model turns'),
  images: () => optional(stringList(), 'Image files (PNG, JPEG, GIF, WebP by extension; relative paths from workingDirectory) attached to the prompt: the model sees them. A missing file is an InvalidOptionsError before anything runs; in a live session, pass them to send()'),
  files: () => optional(stringList(), 'Other files attached to the prompt (relative paths from workingDirectory): a PDF (by extension) as a document, any other file as UTF-8 text. Which CLI takes which kind: adapters.md; a missing file is an InvalidOptionsError before anything runs; in a live session, pass them to send()'),
});

const coreRunFields = fields({
  signal: () => optional(v.custom<AbortSignal>((value) => value instanceof AbortSignal, 'signal must be an AbortSignal'), 'Aborting it stops the CLI and its whole process group'),
  stallTimeoutMs: coreFields.stallTimeoutMs,
  onRawLine: coreFields.onRawLine,
  onEvent: coreFields.onEvent,
  collectEvents: () => optional(boolean(), 'Keep every event in RunResult.events'),
  outputJsonSchema: () => optional(v.custom<Readonly<Record<string, unknown>>>(isJsonObject, 'outputJsonSchema must be a JSON Schema object'),
    "The JSON Schema the CLI is given for outputSchema, when its library provides none (zod before 4.2, zod/mini, zod/v3, valibot); it wins over the library's own"),
});

const sharedStartFields = { ...coreFields, ...adapterStartFields };
const runFields = { ...coreRunFields, ...adapterRunFields };

/** Each layer of options, key by key: what parseOptions() checks an options object against. */
export const optionFields = {
  sharedStart: sharedStartFields,
  run: runFields,
  oneShot: { ...sharedStartFields, ...runFields },
};

/**
 * One-shot options as a coder's and a run's: a key both layers have (`onEvent`, `onRawLine`,
 * `stallTimeoutMs`) goes to the run.
 */
export function splitOneShotOptions(options: Readonly<Record<string, unknown>>): { start: Record<string, unknown>; run: Record<string, unknown> } {
  const start: Record<string, unknown> = {};
  const run: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) (Object.hasOwn(runFields, key) ? run : start)[key] = value;
  return { start, run };
}

/** Every ToolKind, for the schemas that take one (the compiler keeps the list whole). */
const toolKindNames = Object.keys({
  shell: true, read: true, write: true, edit: true, search: true, list: true, fetch: true, web_search: true, mcp: true, task: true, plan: true, ask: true, other: true,
} satisfies Record<ToolKind, true>) as ToolKind[];

const noNul = (what: string) => v.check((value: string) => !value.includes('\0'), `${what} must not contain a NUL byte`);

/**
 * What createAcpAdapter() takes: an ACP agent, checked before anything can start it. The command and
 * its arguments go to the process as given (no shell); variable names are names, nothing else.
 */
const acpPreset = once(() => strictObject({
  name: v.pipe(v.string(m), v.regex(/^[a-z][a-z0-9-]{0,63}$/, 'lowercase letters, digits and -, starting with a letter, at most 64 (it is the provider of every event)'), v.description('The agent\'s name: the provider of its events, results and errors')),
  command: v.pipe(v.string(m), v.minLength(1, m), noNul('command'), v.description('The executable: a name looked up on PATH, or a path (executablePath overrides it per coder)')),
  args: optional(v.array(v.pipe(v.string(m), noNul('an argument')), m), 'Arguments that start its ACP mode, as given (e.g. ["--acp"]); the prompt never goes here'),
  env: optional(v.record(v.pipe(v.string(m), v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a variable name is letters, digits and _, not starting with a digit')), v.pipe(v.string(m), noNul('an env value')), m),
    'Variables its ACP mode needs; the options\' extraEnv and unsetEnv apply on top'),
  credentials: optional(v.array(v.pipe(v.string(m), v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a variable name is letters, digits and _, not starting with a digit')), m),
    "Names of the variables holding the agent's credentials: kept under inheritEnv 'minimal', their values redacted from events, errors and recordings"),
  authMethod: optional(v.pipe(v.string(m), v.minLength(1, m)), 'Sent as authenticate { methodId } after initialize: an id of the authMethods the agent lists'),
  capabilities: optional(strictObject({
    interrupt: optional(boolean(), 'session/cancel ends a running turn (default true: ACP v1 has it)'),
    setModel: optional(boolean(), 'setModel() sends session/set_model (default false: not in ACP v1\'s stable methods)'),
    loadSession: optional(boolean(), 'open(options, { sessionId }) sends session/load when initialize says loadSession (default true)'),
    images: optional(boolean(), 'send() takes images, as ACP image blocks, when initialize says promptCapabilities.image (default false)'),
  }), 'What a live session of the agent may do beyond open and send'),
  toolKinds: optional(v.record(v.string(m), picklist(toolKindNames), m), 'ACP tool kind → ToolKind, over the protocol\'s own mapping (execute → shell, read → read, edit → edit, delete and move → write, search → search, fetch → fetch, switch_mode → plan, else other)'),
}));

export type AcpAgentOptions = v.InferInput<ReturnType<typeof acpPreset>>;

/** The issues of a createAcpAdapter() preset, each naming its key; empty when it is well formed. */
export function acpPresetIssues(value: unknown): string[] {
  const result = v.safeParse(acpPreset(), value, { abortEarly: false, abortPipeEarly: true });
  if (result.success) return [];
  return result.issues.map((issue) => {
    const path = pathOfIssue(issue);
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}

/** An issue's path as dotted keys (`env.MY_VAR`, `args.1`). */
function pathOfIssue(issue: v.BaseIssue<unknown>): string {
  return (issue.path ?? []).map((item) => String(item.key)).join('.');
}

export type OptionFieldTable = Readonly<Record<string, () => v.GenericSchema>>;
type Entries<F extends OptionFieldTable> = { -readonly [K in keyof F]: ReturnType<F[K]> };
/** The object schema of a table of options (the type and the docs of that layer). */
export type OptionsSchema<F extends OptionFieldTable> = v.StrictObjectSchema<Entries<F>, (issue: v.BaseIssue<unknown>) => string>;
/** What an options object of that layer holds once checked. */
export type OptionsOf<F extends OptionFieldTable> = v.InferOutput<OptionsSchema<F>>;

function schemaOf<F extends OptionFieldTable>(table: F): OptionsSchema<F> {
  return strictObject(Object.fromEntries(Object.entries(table).map(([key, make]) => [key, make()])) as Entries<F>);
}

/**
 * What the docs and the command line read of an option's schema: valibot's public schema properties
 * (`wrapped` of optional, `item` of array, `value` of record, `options` of picklist and union, `entries` of object).
 */
export interface OptionSchemaNode {
  readonly type: string;
  readonly wrapped?: OptionSchemaNode;
  readonly item?: OptionSchemaNode;
  readonly value?: OptionSchemaNode;
  readonly options?: ReadonlyArray<string | OptionSchemaNode>;
  readonly entries?: Readonly<Record<string, OptionSchemaNode>>;
}

/** Each option of an options schema with its description and its schema without the optional wrapper. */
export function describedOptions(schema: { readonly entries: v.ObjectEntries }): Array<{ key: string; description: string; node: OptionSchemaNode }> {
  return Object.entries(schema.entries).map(([key, entry]) => {
    const node = entry as unknown as OptionSchemaNode;
    return { key, description: v.getDescription(entry) ?? '', node: node.type === 'optional' && node.wrapped ? node.wrapped : node };
  });
}

interface Schemas {
  sharedStartOptsSchema: OptionsSchema<typeof optionFields.sharedStart>;
  runOptsSchema: OptionsSchema<typeof optionFields.run>;
  oneShotOptsSchema: OptionsSchema<typeof optionFields.oneShot>;
}
let schemas: Schemas | undefined;

/** The valibot schemas of the options (built on first use). `v.getDescription(schema.entries[key])` documents each key. */
export function optionSchemas(): Schemas {
  return (schemas ??= {
    sharedStartOptsSchema: schemaOf(optionFields.sharedStart),
    runOptsSchema: schemaOf(optionFields.run),
    oneShotOptsSchema: schemaOf(optionFields.oneShot),
  });
}

export type SharedStartOpts = v.InferInput<Schemas['sharedStartOptsSchema']>;
export type RunOpts = v.InferInput<Schemas['runOptsSchema']>;
export type OneShotOpts = v.InferInput<Schemas['oneShotOptsSchema']>;
/** Everything one run is given: the coder's and session's defaults merged with the run's own options. */
export type ResolvedOpts = OneShotOpts;

type CliOnlyTables = typeof cliOnlyStartFields;
/**
 * The keys only other CLIs have: none for a CLI without a table of its own (an adapter of the caller's); for
 * a union of names, the keys none of them has.
 */
type OtherClisKeys<P extends string> = [P] extends [keyof CliOnlyTables] ? { [Q in keyof CliOnlyTables]: Q extends P ? never : keyof CliOnlyTables[Q] }[keyof CliOnlyTables] : never;
/** A coder's or session's options for one CLI: the shared ones and that CLI's own. */
export type StartOptsFor<P extends string> = Omit<SharedStartOpts, OtherClisKeys<P>>;
/** A one-shot run's options for one CLI. */
export type OneShotOptsFor<P extends string> = Omit<OneShotOpts, OtherClisKeys<P>>;

/**
 * The names a capability table is keyed by: every adapter-dependent option, with the permission
 * policy split into the parts a CLI may support separately.
 */
let features: readonly string[] | undefined;
export function featureNames(): readonly string[] {
  features ??= [
    ...Object.keys(adapterStartFields).filter((key) => key !== 'permissionPolicy'),
    'permissionPolicy.mode=plan',
    'permissionPolicy.mode=bypass',
    'permissionPolicy.allow',
    'permissionPolicy.deny',
    'permissionPolicy.denyKinds',
    ...Object.keys(adapterRunFields),
  ];
  return features;
}

export type FeatureName =
  | Exclude<keyof typeof adapterStartFields, 'permissionPolicy'>
  | 'permissionPolicy.mode=plan'
  | 'permissionPolicy.mode=bypass'
  | 'permissionPolicy.allow'
  | 'permissionPolicy.deny'
  | 'permissionPolicy.denyKinds'
  | keyof typeof adapterRunFields;

/** The features a set of options asks for (options left undefined or false ask for nothing). */
export function requestedFeatures(opts: ResolvedOpts): FeatureName[] {
  const used: FeatureName[] = [];
  for (const [key, value] of Object.entries(opts)) {
    if (value === undefined || value === false) continue;
    if (key === 'permissionPolicy') {
      const policy = value as NonNullable<ResolvedOpts['permissionPolicy']>;
      if (policy.mode === 'plan' || policy.mode === 'bypass') used.push(`permissionPolicy.mode=${policy.mode}`);
      if (policy.allow?.length) used.push('permissionPolicy.allow');
      if (policy.deny?.length) used.push('permissionPolicy.deny');
      if (policy.denyKinds?.length) used.push('permissionPolicy.denyKinds');
    } else if (featureNames().includes(key)) {
      used.push(key as FeatureName);
    }
  }
  return used;
}
