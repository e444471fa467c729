// Options → `gemini` command line (0.61.0). The prompt goes on stdin: without `-p` the CLI reads a
// piped stdin as the prompt and runs headless, so it never shows in `ps`. The CLI's home is always
// the coder's private state dir, where settings.ts writes the run's settings; GEMINI_CLI_NO_RELAUNCH
// keeps it one process (its relaunching parent ignores SIGTERM and orphans the child when killed).
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { Invocation, InvocationContext, SessionTarget } from '../../core/contract/adapter.js';
import { gatedRun } from '../../core/options/gated-run.js';
import { promptWithOutputSchema } from '../../core/options/schema-prompt.js';
import { CoderError, FeatureNotSupportedError, InvalidOptionsError } from '../../errors.js';
import type { ResolvedOpts } from '../../options.js';
import { isUuid, notWholeSessionId } from '../../schema/ids.js';
import { prepareRunHome, storeDirOf } from './home.js';
import { geminiSessionFile } from './store.js';
import { bridgedServerNames, geminiSettings } from './settings.js';

/** Every run: JSONL on stdout. */
export const baseArgs = ['--output-format', 'stream-json'] as const;

/** A tool rule the settings take: a tool name, optionally with a command prefix in parentheses (`run_shell_command(git)`). */
// `$` is refused: the CLI expands $VAR in every settings string.
const allowRule = /^[A-Za-z0-9_.:-]+(\([^()\n$]*\))?$/;
const toolName = /^[A-Za-z0-9_.:-]+$/;

export function validateGeminiOptions(opts: ResolvedOpts, session: SessionTarget): void {
  const issues: string[] = [];
  // The CLI creates a session only under a UUID (--session-id); resuming takes its ids as they are.
  if (opts.sessionId && session.kind === 'new' && !isUuid(opts.sessionId)) issues.push(`sessionId "${opts.sessionId}" must be a UUID for Gemini`);
  // --resume also takes `latest` and an index (1 = the oldest session): an id "1" would continue
  // whichever session came first. Gemini's ids are UUIDs.
  const notWhole = notWholeSessionId(session, 'gemini');
  if (notWhole) issues.push(notWhole);
  for (const rule of [...(opts.allowedTools ?? []), ...(opts.permissionPolicy?.allow ?? [])]) {
    if (!allowRule.test(rule)) issues.push(`allow rule "${rule}": use a tool name, or name(command prefix) for run_shell_command`);
  }
  // --include-directories splits its values on commas: "a,/etc" would add two directories.
  for (const dir of opts.addDirs ?? []) if (dir.includes(',')) issues.push(`addDirs "${dir}": Gemini reads a comma as two directories`);
  for (const rule of opts.permissionPolicy?.deny ?? []) {
    if (!toolName.test(rule)) issues.push(`deny rule "${rule}": Gemini excludes whole tools, give a tool name`);
  }
  // The adapter owns the CLI's home: its settings file there is what turns telemetry off and sets the gate.
  if (opts.extraEnv?.GEMINI_CLI_HOME !== undefined) issues.push("extraEnv.GEMINI_CLI_HOME: the adapter gives each run a home of its own (its settings file is there); sessions are kept in the host's GEMINI_CLI_HOME, else HOME: set extraEnv.HOME to move them");
  if (opts.extraEnv?.GEMINI_CLI_SYSTEM_SETTINGS_PATH !== undefined) issues.push('extraEnv.GEMINI_CLI_SYSTEM_SETTINGS_PATH: system settings would override the run\'s settings');
  if (issues.length) throw new InvalidOptionsError(issues, 'gemini');
}

/**
 * What a working directory brings along once trusted: its `.gemini/` (settings with hooks, MCP servers
 * and tool rules, policies, commands, agents) and the first `.env` from it upwards (variables the CLI
 * adopts, an endpoint among them). The CLI runs headless only in a trusted folder (else exit 55).
 */
function repositoryConfig(cwd: string): string | undefined {
  if (existsSync(join(cwd, '.gemini'))) return join(cwd, '.gemini');
  for (let dir = cwd; ; dir = dirname(dir)) {
    for (const file of [join(dir, '.gemini', '.env'), join(dir, '.env')]) if (existsSync(file)) return file;
    if (dirname(dir) === dir) return undefined;
  }
}

/** A gated run never trusts what the repository adds: Gemini has no way to run headless in a folder without it. */
function refuseRepositoryConfig(ctx: InvocationContext): void {
  const found = repositoryConfig(ctx.cwd);
  if (!found) return;
  throw new FeatureNotSupportedError(
    'gemini',
    `permissionPolicy or canUseTool in a folder with its own Gemini config (${found})`,
    'Gemini loads a trusted folder\'s .gemini/ (settings with hooks, MCP servers, tool rules and policies) and .env, and runs headless only in a trusted folder; run in a directory without them, or without the gate.',
  );
}

function approvalMode(opts: ResolvedOpts): string {
  if (opts.permissionPolicy?.mode === 'plan') return 'plan';
  if (opts.permissionPolicy?.mode === 'bypass') return 'yolo';
  return 'default';
}

function sessionArgs(session: SessionTarget, opts: ResolvedOpts): string[] {
  switch (session.kind) {
    case 'resume':
      return [`--resume=${session.sessionId}`];
    case 'continue':
      return ['--resume=latest'];
    case 'fork':
      // canFork is false: the core refuses fork() before building an invocation.
      throw new InvalidOptionsError(['Gemini cannot fork a session'], 'gemini');
    case 'new':
      return opts.sessionId ? [`--session-id=${opts.sessionId}`] : [];
  }
}

/**
 * Attachments as the CLI's `@path` references after the prompt (it inlines images and PDFs as data,
 * text files as their content). Only paths inside the workspace are read, spaces escaped.
 */
function attachmentReferences(ctx: InvocationContext): string {
  const paths = [...(ctx.opts.images ?? []), ...(ctx.opts.files ?? [])];
  const roots = [ctx.cwd, ...(ctx.opts.addDirs ?? []).map((dir) => resolve(ctx.cwd, dir))];
  const references = paths.map((path) => {
    const absolute = resolve(ctx.cwd, path);
    if (!roots.some((root) => { const inside = relative(root, absolute); return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside); })) {
      throw new InvalidOptionsError([`attachment "${path}": Gemini reads @references inside the working directory or addDirs only`], 'gemini');
    }
    return `@${absolute.replace(/([\\\s@])/g, '\\$1')}`;
  });
  return references.length ? `\n\n${references.join(' ')}` : '';
}

/** A resume of an id the store lacks fails before the CLI starts (it would exit 42 after booting). */
async function checkStoredSession(ctx: InvocationContext, sessionId: string): Promise<void> {
  if (await geminiSessionFile(ctx, sessionId)) return;
  throw new CoderError('session_not_found', `gemini has no session "${sessionId}" in its store ${await storeDirOf(ctx)}`, { provider: 'gemini' });
}

export async function buildGeminiInvocation(ctx: InvocationContext): Promise<Invocation> {
  const { opts } = ctx;
  if (ctx.session.kind === 'resume') await checkStoredSession(ctx, ctx.session.sessionId);
  if (gatedRun(opts)) refuseRepositoryConfig(ctx);
  const stdin = (opts.outputSchema && ctx.outputJsonSchema ? promptWithOutputSchema(ctx.prompt, ctx.outputJsonSchema) : ctx.prompt) + attachmentReferences(ctx);
  const settings = geminiSettings(ctx);
  const home = await prepareRunHome(ctx, settings);

  const args: string[] = [...baseArgs, `--approval-mode=${approvalMode(opts)}`];
  if (opts.model) args.push(`--model=${opts.model}`);
  for (const dir of opts.addDirs ?? []) args.push(`--include-directories=${resolve(ctx.cwd, dir)}`);
  // Only the bridge's servers: none a folder's settings add.
  if (opts.strictMcpConfig) for (const name of bridgedServerNames(settings)) args.push(`--allowed-mcp-server-names=${name}`);
  args.push(...(opts.extraArgs ?? []));
  args.push(...sessionArgs(ctx.session, opts));

  const env: Record<string, string> = {
    GEMINI_CLI_HOME: home,
    GEMINI_CLI_NO_RELAUNCH: 'true',
    GEMINI_TELEMETRY_ENABLED: 'false',
    NO_COLOR: '1',
    // The CLI writes a report of every failed model call (the whole request, prompt included) to the
    // temp dir: the run's private one, removed with the run.
    TMPDIR: dirname(home),
  };
  // Strict: not even the user's ~/.env and ~/.gemini-adjacent files; HOME stays the coder's across runs.
  if (opts.isolation === 'strict') env.HOME = await ctx.coderStateDir();
  if (opts.systemPrompt !== undefined) env.GEMINI_SYSTEM_MD = await ctx.writeTempFile('gemini-system.md', opts.systemPrompt);
  return { args, env, stdin };
}
