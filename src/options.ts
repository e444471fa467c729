// The one options schema: TypeScript types, runtime validation and the docs all come from here.
// Each field's `.describe()` text is what docs/api.md shows.
import { z } from 'zod';
import { isJsonObject } from './core/json.js';
import { jsonSchemaProblems } from './core/output-schema.js';
import { isStandardSchema, type StandardSchemaV1 } from './core/standard-schema.js';
import type { CanUseTool } from './core/permission.js';
import type { CoderStreamEvent } from './events.js';
import { isTool, type Tool } from './tool.js';
import { toolBridgeServerName } from './core/tool-names.js';

export const reasoningEfforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export type ReasoningEffort = (typeof reasoningEfforts)[number];

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

/** A plain JSON Schema outputSchema is compiled here, so a schema the SDK cannot check fails before anything runs. */
function checkOutputSchema(schema: OutputSchema, ctx: z.RefinementCtx): void {
  if (isStandardSchema(schema) || !isJsonObject(schema)) return;
  for (const problem of jsonSchemaProblems(schema)) ctx.addIssue({ code: 'custom', message: `JSON Schema ${problem}` });
}

function defineSchemas() {
  const fn = <T extends (...args: never[]) => unknown>(what: string) =>
    z.custom<T>((value) => typeof value === 'function', { message: `${what} must be a function` });

  const stringList = z.array(z.string());

  const tomlValue = z.custom<TomlValue>(isTomlValue, { message: 'codexConfig values must be strings, finite numbers, booleans, arrays or tables of them' });

  const outputSchema = z.custom<OutputSchema>(
    (value) => isStandardSchema(value) || isJsonObject(value),
    { message: 'outputSchema must be a Standard Schema (zod, valibot, arktype, …) or a JSON Schema object' },
  ).superRefine(checkOutputSchema);

  const permissionPolicy = z.strictObject({
    mode: z.enum(['default', 'plan', 'bypass']).optional().describe('plan: read-only; bypass: no permission checks at all'),
    allow: stringList.optional().describe('Tools the agent may use without asking'),
    deny: stringList.optional().describe('Tools the agent must not use'),
  });

  const stringMap = z.record(z.string(), z.string());
  /** An external MCP server: a program on stdio, or a streamable HTTP endpoint. */
  const mcpServer = z.union([
    z.strictObject({ command: z.string().min(1), args: stringList.optional(), env: stringMap.optional() }),
    z.strictObject({ url: z.string().regex(/^https?:\/\//, 'an MCP server url must be http(s)'), headers: stringMap.optional() }),
  ]);
  const mcpServers = z.record(z.string(), mcpServer).superRefine((servers, ctx) => {
    for (const name of Object.keys(servers)) {
      if (!/^[A-Za-z0-9_-]+$/.test(name)) ctx.addIssue({ code: 'custom', message: `MCP server name "${name}": use letters, digits, _ and -` });
      if (name === toolBridgeServerName) ctx.addIssue({ code: 'custom', message: `MCP server name "${name}" is taken by the custom-tools bridge` });
    }
  });

  const claudeAgent = z.strictObject({
    description: z.string(),
    prompt: z.string(),
    tools: stringList.optional(),
    model: z.string().optional(),
  });

  /** Options the core handles the same way for every CLI; they never need adapter support. */
  const coreFields = {
    executablePath: z.string().min(1).optional().describe('Path of the CLI executable, a relative one from process.cwd() (default: found on PATH)'),
    extraEnv: z.record(z.string(), z.string()).optional().describe('Variables added to the CLI environment; empty strings are kept'),
    unsetEnv: stringList.optional().describe('Variables removed from the CLI environment, after extraEnv'),
    inheritEnv: z.union([z.enum(['all', 'minimal']), stringList]).optional()
      .describe("What the CLI (and its shell tool) inherits of this process's environment: 'all' (default), 'minimal' (PATH, HOME, locale, temp dirs, proxies, CA certificates and the CLI's own auth and config variables; see README), or exactly the names listed. extraEnv always goes through"),
    stallTimeoutMs: z.number().int().positive().optional().describe('Kill the CLI when it prints nothing for this long (default 300000)'),
    terminalGraceMs: z.number().int().nonnegative().optional().describe('How long the CLI may linger after its final record before it is killed (default 3000)'),
    maxLineBytes: z.number().int().positive().optional().describe('Longest stdout line accepted; longer lines become an error event (default 32 MiB)'),
    onRawLine: fn<(line: string) => void>('onRawLine').optional().describe('Called with every stdout line, before translation'),
    onEvent: fn<(event: CoderStreamEvent) => void>('onEvent').optional().describe('Called with every event as it happens'),
    permissionTimeoutMs: z.number().int().positive().optional().describe('How long canUseTool may take before the tool use is denied (default 60000)'),
  };

  /** Options that depend on the CLI: each adapter's capability data says whether and how it honours them. */
  const adapterStartFields = {
    model: z.string().min(1).optional().describe('Model id passed to the CLI'),
    reasoningEffort: z.enum(reasoningEfforts).optional().describe('How hard the model thinks'),
    workingDirectory: z.string().min(1).optional().describe('The agent works here (default: process.cwd())'),
    addDirs: stringList.optional().describe('Extra directories the agent may access'),
    allowedTools: stringList.optional().describe('Tools allowed without asking (same as permissionPolicy.allow)'),
    permissionPolicy: permissionPolicy.optional().describe('Permissions in one place: a mode, plus tools to allow or deny'),
    sessionId: z.string().min(1).optional().describe('Id for a new session, chosen by the caller'),
    systemPrompt: z.string().optional().describe('Replaces the CLI system prompt'),
    appendSystemPrompt: z.string().optional().describe('Appended to the CLI system prompt'),
    extraArgs: stringList.optional().describe('Flags passed to the CLI as given, for what coderline does not model yet; a flag the adapter sets itself is refused by name'),
    tools: z.array(z.custom<Tool>(isTool, { message: 'tools must be made by tool()' }))
      .refine((tools) => new Set(tools.map((t) => t.name)).size === tools.length, { message: 'tool names must be unique' })
      .optional().describe('Custom tools (made by tool()) the agent can call; served to the CLI over a per-run MCP bridge'),
    mcpServers: mcpServers.optional().describe('External MCP servers by name: { command, args?, env? } (stdio) or { url, headers? } (streamable HTTP), next to the custom-tools bridge. Their tools run without asking (a headless run cannot ask)'),
    strictMcpConfig: z.boolean().optional().describe("Only mcpServers and the custom-tools bridge: none of the MCP servers of the user's or the project's config (default false: those load too)"),
    canUseTool: fn<CanUseTool>('canUseTool').optional().describe('Decides each tool use the CLI asks about: allow (optionally with changed input) or deny (with a message); throwing or timing out denies'),
    // Claude
    permissionMode: z.enum(['default', 'manual', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk', 'auto']).optional().describe('Claude --permission-mode'),
    settingSources: z.array(z.enum(['user', 'project', 'local'])).optional().describe('Claude --setting-sources'),
    isolation: z.enum(['none', 'strict']).optional().describe('strict: a private config dir per coder and no user MCP servers'),
    agents: z.record(z.string(), claudeAgent).optional().describe('Claude --agents'),
    maxBudgetUsd: z.number().positive().optional().describe('Claude --max-budget-usd'),
    fallbackModel: z.string().min(1).optional().describe('Claude --fallback-model: used when the model is overloaded'),
    claudeBare: z.boolean().optional().describe('Claude --bare'),
    claudeNoSessionPersistence: z.boolean().optional().describe('Claude --no-session-persistence (the session cannot be resumed)'),
    // Codex
    codexReasoningEffort: z.enum(reasoningEfforts).optional().describe('Legacy alias of reasoningEffort for Codex'),
    codexSandbox: z.enum(['read-only', 'workspace-write', 'danger-full-access']).optional().describe('Codex --sandbox'),
    codexNetworkAccess: z.boolean().optional().describe('Codex sandbox_workspace_write.network_access'),
    codexDisablePlugins: z.boolean().optional().describe('Codex --disable plugins'),
    codexSearch: z.enum(['disabled', 'cached', 'live']).optional().describe('Codex web_search mode'),
    codexEphemeral: z.boolean().optional().describe('Codex --ephemeral'),
    codexIgnoreUserConfig: z.boolean().optional().describe('Codex --ignore-user-config'),
    codexIgnoreRules: z.boolean().optional().describe('Codex --ignore-rules'),
    codexDangerouslyBypassApprovalsAndSandbox: z.boolean().optional().describe('Codex --dangerously-bypass-approvals-and-sandbox'),
    codexConfig: z.record(z.string(), tomlValue).optional().describe('Codex -c key=value overrides (e.g. a model provider); values are TOML: strings, numbers, booleans, arrays, tables'),
    codexImages: stringList.optional().describe('Legacy alias of images for Codex (--image=FILE, one per image)'),
    // Copilot
    copilotMode: z.enum(['interactive', 'plan', 'autopilot']).optional().describe('Copilot --mode'),
    copilotAgent: z.string().optional().describe('Copilot --agent'),
    copilotAllowUrls: stringList.optional().describe('Copilot --allow-url'),
    copilotDenyUrls: stringList.optional().describe('Copilot --deny-url'),
    copilotAvailableTools: stringList.optional().describe('Copilot --available-tools'),
    copilotExcludedTools: stringList.optional().describe('Copilot --excluded-tools'),
    copilotAdditionalMcpConfig: z.union([z.string(), z.record(z.string(), z.unknown())]).optional().describe('Copilot --additional-mcp-config'),
    // Pi
    piProvider: z.string().optional().describe('Pi --provider'),
    piModels: stringList.optional().describe('Pi --models'),
    piNoSession: z.boolean().optional().describe('Pi --no-session'),
    piSessionDir: z.string().optional().describe('Pi --session-dir'),
    piNoContextFiles: z.boolean().optional().describe('Pi --no-context-files'),
    piNoExtensions: z.boolean().optional().describe('Pi --no-extensions'),
    piNoSkills: z.boolean().optional().describe('Pi --no-skills'),
    piNoPromptTemplates: z.boolean().optional().describe('Pi --no-prompt-templates'),
  };

  /** Per-run options that depend on the CLI. */
  const adapterRunFields = {
    outputSchema: outputSchema.optional().describe('Structured output: the answer is parsed and validated against it'),
    strictSchema: z.boolean().optional().describe('Require the CLI to enforce outputSchema natively'),
    streamPartialMessages: z.boolean().optional().describe('Stream text and reasoning deltas as they arrive'),
    maxTurns: z.number().int().positive().optional().describe('Stop after this many model turns'),
    images: stringList.optional().describe('Image files (PNG, JPEG, GIF, WebP; relative paths from workingDirectory) attached to the prompt: the model sees them'),
  };

  const coreRunFields = {
    signal: z.custom<AbortSignal>((value) => value instanceof AbortSignal, { message: 'signal must be an AbortSignal' })
      .optional().describe('Aborting it stops the CLI and its whole process group'),
    stallTimeoutMs: coreFields.stallTimeoutMs,
    onRawLine: coreFields.onRawLine,
    onEvent: coreFields.onEvent,
    collectEvents: z.boolean().optional().describe('Keep every event in RunResult.events'),
    outputJsonSchema: z.custom<Readonly<Record<string, unknown>>>(isJsonObject, { message: 'outputJsonSchema must be a JSON Schema object' })
      .optional().describe("The JSON Schema the CLI is given for outputSchema, when its library provides none (zod before 4.2, zod/mini, zod/v3, valibot); it wins over the library's own"),
  };

  return {
    sharedStartOptsSchema: z.strictObject({ ...coreFields, ...adapterStartFields }),
    runOptsSchema: z.strictObject({ ...coreRunFields, ...adapterRunFields }),
    oneShotOptsSchema: z.strictObject({ ...coreFields, ...adapterStartFields, ...coreRunFields, ...adapterRunFields }),
    adapterStartFields,
    adapterRunFields,
  };
}

type Schemas = ReturnType<typeof defineSchemas>;
let schemas: Schemas | undefined;

/** The zod schemas of the options (built on first use). `.shape[key].description` documents each key. */
export function optionSchemas(): Pick<Schemas, 'sharedStartOptsSchema' | 'runOptsSchema' | 'oneShotOptsSchema'> {
  return (schemas ??= defineSchemas());
}

export type SharedStartOpts = z.input<Schemas['sharedStartOptsSchema']>;
export type RunOpts = z.input<Schemas['runOptsSchema']>;
export type OneShotOpts = z.input<Schemas['oneShotOptsSchema']>;
/** Everything one run is given: the coder's and session's defaults merged with the run's own options. */
export type ResolvedOpts = OneShotOpts;

/**
 * The names a capability table is keyed by: every adapter-dependent option, with the permission
 * policy split into the parts a CLI may support separately.
 */
let features: readonly string[] | undefined;
export function featureNames(): readonly string[] {
  schemas ??= defineSchemas();
  features ??= [
    ...Object.keys(schemas.adapterStartFields).filter((key) => key !== 'permissionPolicy'),
    'permissionPolicy.mode=plan',
    'permissionPolicy.mode=bypass',
    'permissionPolicy.allow',
    'permissionPolicy.deny',
    ...Object.keys(schemas.adapterRunFields),
  ];
  return features;
}

export type FeatureName =
  | Exclude<keyof Schemas['adapterStartFields'], 'permissionPolicy'>
  | 'permissionPolicy.mode=plan'
  | 'permissionPolicy.mode=bypass'
  | 'permissionPolicy.allow'
  | 'permissionPolicy.deny'
  | keyof Schemas['adapterRunFields'];

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
    } else if (featureNames().includes(key)) {
      used.push(key as FeatureName);
    }
  }
  return used;
}
