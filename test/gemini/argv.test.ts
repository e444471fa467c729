// The gemini adapter's invocation without the binary: flags, the run's settings file and what is
// refused before anything starts.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { geminiAdapter } from '../../src/adapters/gemini/index.js';
import type { InvocationContext } from '../../src/core/contract/adapter.js';
import { buildEnv } from '../../src/core/process/env.js';
import { createCoder, FeatureNotSupportedError, InvalidOptionsError, run } from '../../src/index.js';
import type { ResolvedOpts } from '../../src/options.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function invocation(opts: ResolvedOpts, prompt = 'Do it.') {
  const temp = await mkdtemp(join(tmpdir(), 'coderline-gemini-argv-'));
  const state = await mkdtemp(join(tmpdir(), 'coderline-gemini-state-'));
  const cwd = await mkdtemp(join(tmpdir(), 'coderline-gemini-cwd-'));
  dirs.push(temp, state, cwd);
  const ctx: InvocationContext = {
    prompt,
    opts: { extraEnv: { HOME: state }, ...opts },
    session: { kind: 'new' },
    cwd,
    writeTempFile: async (name, content) => {
      const file = join(temp, name);
      await import('node:fs/promises').then((fs) => fs.writeFile(file, content, { mode: 0o600 }));
      return file;
    },
    coderStateDir: async () => state,
    outputJsonSchema: undefined,
    toolBridge: { name: 'coderline', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer s3cret' }, secret: 's3cret', toolNames: ['lookup'], servers: [] },
  };
  const built = await geminiAdapter.buildInvocation(ctx);
  const settingsFile = join(built.env!.GEMINI_CLI_HOME!, '.gemini', 'settings.json');
  return { built, cwd, settingsFile, settings: JSON.parse(await readFile(settingsFile, 'utf8')) as Record<string, Record<string, unknown>> };
}

describe('gemini invocation', () => {
  it('puts the prompt on stdin only, one process, the settings file private with telemetry off and the bridge in it', async () => {
    const { built, settings, settingsFile } = await invocation({ permissionPolicy: { mode: 'bypass' }, extraEnv: { GEMINI_API_KEY: 'k' } }, 'a prompt --yolo');
    expect(built.stdin).toBe('a prompt --yolo');
    expect(built.args.join(' ')).not.toContain('a prompt');
    expect(built.args).toEqual(['--output-format', 'stream-json', '--approval-mode=yolo']);
    expect(built.env).toMatchObject({ GEMINI_CLI_NO_RELAUNCH: 'true', GEMINI_TELEMETRY_ENABLED: 'false', TMPDIR: dirname(built.env!.GEMINI_CLI_HOME!) });
    expect((await stat(settingsFile)).mode & 0o777).toBe(0o600);
    expect(settings).toMatchObject({ privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false }, general: { enableAutoUpdate: false }, security: { auth: { selectedType: 'gemini-api-key' } } });
    expect(settings.mcpServers).toEqual({ coderline: { httpUrl: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer s3cret' }, trust: true } });
  });

  it('denyKinds exclude every Gemini tool of those kinds', async () => {
    const { settings } = await invocation({ permissionPolicy: { deny: ['web_fetch'], denyKinds: ['shell', 'search'] } });
    expect(settings.tools).toEqual({ exclude: ['web_fetch', 'run_shell_command', 'glob', 'grep_search', 'search_file_content'] });
  });

  it('maps plan mode without its way out, allow and deny rules, Vertex auth; geminiSettings cannot undo the adapter\'s keys', async () => {
    const { built, settings } = await invocation({
      permissionPolicy: { mode: 'plan', allow: ['run_shell_command(git status)'], deny: ['web_fetch'] },
      extraEnv: { GOOGLE_GENAI_USE_VERTEXAI: 'true' },
      geminiSettings: { telemetry: { enabled: true }, tools: { allowed: ['*'] }, mcpServers: { evil: { command: 'sh' } }, general: { maxAttempts: 2 }, ui: { hideBanner: true } },
    });
    expect(built.args).toContain('--approval-mode=plan');
    expect(settings.tools).toEqual({ allowed: ['run_shell_command(git status)'], exclude: ['web_fetch', 'exit_plan_mode'] });
    expect(settings.telemetry).toMatchObject({ enabled: false });
    expect(settings.security).toMatchObject({ auth: { selectedType: 'vertex-ai' } });
    expect(settings.general).toMatchObject({ maxAttempts: 2, enableAutoUpdate: false });
    expect(settings.ui).toEqual({ hideBanner: true });
    expect(Object.keys(settings.mcpServers ?? {})).toEqual(['coderline']);
  });

  it('attaches images and files as @references after the prompt, and refuses one outside the workspace', async () => {
    const { built, cwd } = await invocation({ images: ['a b.png'], files: ['notes.txt'] });
    expect(built.stdin).toBe(`Do it.\n\n@${cwd}/a\\ b.png @${cwd}/notes.txt`);
    await expect(invocation({ files: ['/etc/hostname'] })).rejects.toBeInstanceOf(InvalidOptionsError);
  });
});

describe('gemini resume ids', () => {
  it.each(['1', 'latest', '00000000'])('resume("%s") is refused before the CLI starts: --resume reads it as an index or the latest session', async (id) => {
    const coder = createCoder(geminiAdapter, { executablePath: '/nonexistent/gemini' });
    await expect(coder.resume(id).run('x')).rejects.toBeInstanceOf(InvalidOptionsError);
    await coder.close();
  });
});

describe('gemini environment', () => {
  it("inheritEnv 'minimal' keeps its credential and endpoint variables, nothing else of the host's", () => {
    const inherited = { PATH: '/bin', GEMINI_API_KEY: 'k', GOOGLE_API_KEY: 'g', GOOGLE_GENAI_USE_VERTEXAI: 'true', GOOGLE_CLOUD_PROJECT: 'p', GOOGLE_CLOUD_LOCATION: 'l', GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:1', OTHER_SECRET: 's' };
    const env = buildEnv({ inherited, inherit: 'minimal', cli: geminiAdapter });
    const { OTHER_SECRET: _dropped, ...kept } = inherited;
    expect(env).toMatchObject(kept);
    expect(env.OTHER_SECRET).toBeUndefined();
  });
});

describe('gemini options refused before anything starts', () => {
  const nowhere = { executablePath: '/nonexistent/gemini' };
  it.each([
    ['canUseTool (one-shot: headless Gemini asks nobody)', { canUseTool: async () => ({ behavior: 'allow' as const }) }, FeatureNotSupportedError],
    ['appendSystemPrompt', { appendSystemPrompt: 'x' }, FeatureNotSupportedError],
    ['reasoningEffort', { reasoningEffort: 'high' as const }, FeatureNotSupportedError],
    ['a deny rule with an argument', { permissionPolicy: { deny: ['run_shell_command(rm)'] } }, InvalidOptionsError],
    ['an allow rule the settings would expand ($VAR)', { allowedTools: ['run_shell_command($X)'] }, InvalidOptionsError],
    ['an allow rule with a newline', { allowedTools: ['read_file\nrun_shell_command'] }, InvalidOptionsError],
    ['extraEnv.GEMINI_CLI_HOME (the run\'s settings live there)', { extraEnv: { GEMINI_CLI_HOME: '/tmp/h' } }, InvalidOptionsError],
    ['a sessionId that is not a UUID', { sessionId: 'my-session' }, InvalidOptionsError],
    ['an addDirs entry Gemini would split in two', { addDirs: ['a,/etc'] }, InvalidOptionsError],
  ])('%s', async (_what, opts, error) => {
    await expect(run(geminiAdapter, 'hi', { ...nowhere, ...opts })).rejects.toBeInstanceOf(error);
  });
});
