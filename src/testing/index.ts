// `coderline/testing`: fake model servers for testing agent jobs offline. Start one with a script,
// get the options that point a CLI at it, run, then assert on the answers and on what the CLI sent.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// From the main entry: the package's code stays one chunk shared by every entry (tsup.config.ts).
import { InvalidOptionsError } from '../index.js';
import type { ProviderName } from '../events.js';
import type { SharedStartOpts } from '../options.js';
import { claudeOptsForFake, startFakeAnthropic } from './anthropic.js';
import { copilotTestEnv, copilotTokenVars } from './copilot-env.js';
import { FAKE_GEMINI_MODEL, geminiForeignVars, geminiTestEnv, startFakeGemini } from './gemini.js';
import { startFakeChat } from './openai-chat.js';
import { codexFakeOpts, startFakeResponses } from './openai-responses.js';
import { opencodeFakeOpts } from './opencode-env.js';
import { createPiAgent } from './pi-env.js';
import type { RecordedRequest, Script } from './script.js';
import type { FakeServer } from './server.js';

export type FakeApi = 'anthropic' | 'openai-responses' | 'openai-chat' | 'gemini';

/** The wire API each CLI speaks to its model. */
export const fakeApiOf: { readonly [P in ProviderName]: FakeApi } = {
  claude: 'anthropic',
  codex: 'openai-responses',
  copilot: 'openai-chat',
  pi: 'openai-chat',
  gemini: 'gemini',
  opencode: 'openai-chat',
};

export interface FakeModelOptions {
  api: FakeApi;
  /** One step per model request, in order (the last repeats), or a function of the request. */
  script: Script;
  /**
   * What a reply's `cutAfterEvents` does at the cut: `close` drops the connection (default); `error`
   * sends an in-stream error object and ends the stream normally, as some gateways do. Only
   * `openai-chat` has the `error` form so far; the other APIs refuse it.
   */
  cutWith?: 'close' | 'error';
}

export interface FakeEnvOptions {
  /**
   * How often the CLI may retry a failed model call on its own (default: 1, or 0 where the CLI allows it).
   * OpenCode has no setting: it retries 429/5xx five times (1.18.33), waiting what a step's
   * `retryAfterMs` / `retryAfterSeconds` says, so a script that fails on purpose keeps them short.
   */
  retries?: number;
  /**
   * How long the CLI itself waits on a silent model call before it gives up (claude: API_TIMEOUT_MS,
   * default 30 s; codex: its stream idle timeout, default 5 s; pi: its request timeout, default 60 s).
   * Raise it to let coderline's `stallTimeoutMs` act first. Copilot and Gemini have no such setting: refused.
   */
  requestTimeoutMs?: number;
  /**
   * `strict`: no shared config dir; the options carry `isolation: 'strict'` so each coder gets a
   * private one (claude's CLAUDE_CONFIG_DIR, copilot's COPILOT_HOME), which its resumes find again.
   * Codex and pi have no strict isolation: refused. Gemini's home is private in every run; strict makes HOME the coder's too.
   */
  isolation?: 'strict';
  /**
   * The context window (tokens) the CLI is told the fake model has: a reply whose usage reaches it
   * makes the CLI compact before its next model call (summarizing with one scripted step of its own).
   * opencode: the model's limit.context; pi: its contextWindow, with compaction.reserveTokens a tenth
   * of it and keepRecentTokens 1 (else a short conversation has nothing to summarize); copilot:
   * COPILOT_PROVIDER_MAX_PROMPT_TOKENS (it compacts in the background from about 80%); codex:
   * model_auto_compact_token_limit. Claude and Gemini: refused (no such setting measured).
   */
  contextWindow?: number;
}

/**
 * What `env()` gives: data only (an environment, config values, paths), never callbacks, tools or MCP
 * servers, so it fits a queue job's options (`enqueue()`) as well as `run()`'s.
 */
export type FakeEnvOpts = Omit<SharedStartOpts, 'tools' | 'canUseTool' | 'mcpServers' | 'onRawLine' | 'onEvent'>;

export interface FakeModel {
  /** Base URL on 127.0.0.1, without a trailing slash. */
  url: string;
  /** The model calls received, in order: body (parsed JSON), headers, path. */
  requests: RecordedRequest[];
  /** Every HTTP request received, model calls or not. */
  allRequests: RecordedRequest[];
  /**
   * Start options that point `cli` (the one on PATH, or set `executablePath`) at this server: the
   * environment, config files in private temp dirs, and the CLI's telemetry and update checks off.
   */
  env(cli: ProviderName, options?: FakeEnvOptions): Promise<FakeEnvOpts>;
  /**
   * Stops the server only (hung requests too): a CLI started afterwards finds nothing listening,
   * while the dirs `env()` made stay until `close()`.
   */
  stopServer(): Promise<void>;
  /** Stops the server (also hung requests) and removes the temp dirs `env()` made. */
  close(): Promise<void>;
}

async function startServer(options: FakeModelOptions): Promise<FakeServer> {
  const known: readonly FakeApi[] = ['anthropic', 'openai-responses', 'openai-chat', 'gemini'];
  if (!known.includes(options.api)) {
    throw new InvalidOptionsError([`unknown fake api "${String(options.api)}"; choose one of: ${known.join(', ')}`]);
  }
  if (options.api === 'openai-chat') return startFakeChat(options.script, { cutWith: options.cutWith });
  if (options.cutWith === 'error') throw new InvalidOptionsError([`cutWith "error" is not available for the ${options.api} fake`]);
  if (options.api === 'gemini') return startFakeGemini(options.script);
  return options.api === 'anthropic' ? startFakeAnthropic(options.script) : startFakeResponses(options.script);
}

/** Refuses env options the CLI has no setting for, rather than ignoring them. */
function checkEnvOptions(cli: ProviderName, options: FakeEnvOptions): void {
  const problems: string[] = [];
  if (options.isolation === 'strict' && (cli === 'codex' || cli === 'pi')) problems.push(`${cli} has no strict isolation`);
  if (options.requestTimeoutMs !== undefined && (cli === 'copilot' || cli === 'gemini')) problems.push(`${cli} has no setting for requestTimeoutMs`);
  const window = options.contextWindow;
  if (window !== undefined && (cli === 'claude' || cli === 'gemini')) problems.push(`${cli} has no setting for contextWindow`);
  // OpenCode keeps 4096 tokens of it for the answer.
  else if (window !== undefined && !(Number.isSafeInteger(window) && window >= 8192)) problems.push(`contextWindow must be an integer of at least 8192, not ${String(window)}`);
  if (problems.length) throw new InvalidOptionsError(problems);
}

async function optionsFor(cli: ProviderName, server: FakeServer, dir: string, options: FakeEnvOptions): Promise<{ opts: FakeEnvOpts; cleanup?: () => Promise<void> }> {
  const strict = options.isolation === 'strict';
  switch (cli) {
    case 'claude': {
      const configDir = strict ? undefined : join(dir, 'config');
      if (configDir) await mkdir(configDir);
      return { opts: claudeOptsForFake(server, { home: dir, configDir, maxRetries: options.retries ?? 1, apiTimeoutMs: options.requestTimeoutMs }) };
    }
    case 'codex': {
      const opts = codexFakeOpts(server, { home: dir, retries: options.retries ?? 0, streamIdleTimeoutMs: options.requestTimeoutMs });
      if (options.contextWindow !== undefined) opts.codexConfig = { ...opts.codexConfig, model_auto_compact_token_limit: options.contextWindow };
      return { opts };
    }
    case 'copilot': {
      // Under strict isolation the adapter sets COPILOT_HOME per coder; a shared one would win over it.
      const extraEnv = copilotTestEnv(server.url, { copilotHome: dir });
      if (strict) delete extraEnv.COPILOT_HOME;
      if (options.contextWindow !== undefined) extraEnv.COPILOT_PROVIDER_MAX_PROMPT_TOKENS = String(options.contextWindow);
      return { opts: { extraEnv, unsetEnv: copilotTokenVars } };
    }
    case 'gemini':
      // The adapter gives every run its own GEMINI_CLI_HOME and TMPDIR; sessions are kept under HOME,
      // this dir (under strict isolation the adapter sets HOME to the coder's state dir).
      return {
        opts: {
          model: FAKE_GEMINI_MODEL,
          extraEnv: geminiTestEnv(server.url, strict ? undefined : dir),
          unsetEnv: geminiForeignVars,
          // One attempt by default: the CLI waits 5 s and more before each retry.
          geminiSettings: { general: { maxAttempts: (options.retries ?? 0) + 1 } },
        },
      };
    case 'pi': {
      const retry = { maxRetries: options.retries ?? 1, baseDelayMs: 50 };
      const window = options.contextWindow;
      const compaction = window === undefined ? {} : { contextWindow: window, compaction: { reserveTokens: Math.ceil(window / 10), keepRecentTokens: 1 } };
      const agent = await createPiAgent({ serverUrl: server.url, retry, requestTimeoutMs: options.requestTimeoutMs, ...compaction });
      return { opts: agent.opts, cleanup: agent.cleanup };
    }
    case 'opencode':
      return { opts: await opencodeFakeOpts({ serverUrl: server.url, dir, requestTimeoutMs: options.requestTimeoutMs, strict, contextWindow: options.contextWindow }) };
  }
}

/** Starts a fake model server on 127.0.0.1 (random port) that answers by `script`. */
export async function startFakeModel(options: FakeModelOptions): Promise<FakeModel> {
  const server = await startServer(options);
  const cleanups: Array<() => Promise<void>> = [];
  return {
    url: server.url,
    requests: server.modelRequests,
    allRequests: server.requests,
    env: async (cli, envOptions = {}) => {
      if (fakeApiOf[cli] !== options.api) {
        throw new InvalidOptionsError([`${cli} speaks ${fakeApiOf[cli]}, but this fake model serves ${options.api}`]);
      }
      checkEnvOptions(cli, envOptions);
      const dir = await mkdtemp(join(tmpdir(), `coderline-fake-${cli}-`));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const { opts, cleanup } = await optionsFor(cli, server, dir, envOptions);
      if (cleanup) cleanups.push(cleanup);
      return envOptions.isolation === 'strict' ? { ...opts, isolation: 'strict' } : opts;
    },
    stopServer: () => server.close(),
    close: async () => {
      await server.close();
      await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
    },
  };
}

/**
 * The first tool the request offers whose name matches: lets a script call "the shell tool" without
 * knowing what this CLI version calls it.
 */
export function offeredTool(request: RecordedRequest, pattern: RegExp): string {
  const listed = ((request.body as { tools?: unknown[] } | undefined)?.tools ?? []) as Array<Record<string, unknown>>;
  // Gemini groups its tools: `tools: [{ functionDeclarations: [...] }]`.
  const tools = listed.flatMap((tool) => (Array.isArray(tool.functionDeclarations) ? (tool.functionDeclarations as Array<Record<string, unknown>>) : [tool]));
  const names = tools.map((tool) => String((tool.function as { name?: unknown } | undefined)?.name ?? tool.name ?? ''));
  const found = names.find((name) => pattern.test(name));
  if (!found) throw new Error(`no offered tool matches ${pattern}; offered: ${names.join(', ')}`);
  return found;
}

// Stream endings only the Responses API has (see each function).
export { responseFailedStep, streamClosedStep } from './openai-responses.js';
export type { ModelReply, ScriptedToolCall, ScriptedUsage, ScriptStep } from '../core/contract/model-reply.js';
export type { RecordedRequest, Script } from './script.js';
export { withSummaries } from './script.js';
