// A coding-agent CLI as an AI SDK language model (LanguageModelV4 of @ai-sdk/provider 4.x, what `ai` 7
// calls): each doGenerate / doStream call is one turn of a coderline session, on one coder per model
// (so a session it started can be resumed by id in a later call).
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4GenerateResult, LanguageModelV4StreamPart, LanguageModelV4StreamResult, SharedV4ProviderOptions, SharedV4Warning } from '@ai-sdk/provider';
import { createCoder, FeatureNotSupportedError, InvalidOptionsError, type AdapterSpec, type Coder, type ProviderName, type RunOpts, type RunStream, type SharedStartOpts, type StartOptsFor } from '../index.js';
import { writeAttachments } from './attachments.js';
import { planCall } from './call-options.js';
import { endingOf, jsonAnswerOf, metadataOf, usageOf } from './finish.js';
import { collectParts } from './generate.js';
import { placeSystem, renderPrompt } from './prompt.js';
import { PartWriter } from './stream-parts.js';
import { bridgedTools, checkCallTools, type AiSdkTool } from './tools.js';

/** coderline's start options for CLI `P`, with AI SDK tools for the agent to call, and the run limits every call shares. */
export type CoderlineModelSettings<P extends string = string> = Omit<StartOptsFor<P>, 'tools'> &
  Pick<RunOpts, 'maxTurns' | 'strictSchema'> & {
    /** AI SDK tools (`tool({ description, inputSchema, execute })`) the agent calls over the tools bridge; they run in this process. */
    tools?: Readonly<Record<string, AiSdkTool>>;
    /**
     * Run each call as a turn of a live session (`coder.open()`, closed when the turn ends) instead of a
     * one-shot run: where the CLI asks the host only in its live mode, this is what lets `canUseTool` gate it.
     */
    live?: boolean;
  };

/** What a call may set under `providerOptions.coderline`. */
export interface CoderlineCallOptions {
  /** Resume this session (from an earlier call's `providerMetadata.coderline.sessionId`): only the new user message is sent. */
  sessionId?: string;
}

function callOptionsOf(options: SharedV4ProviderOptions | undefined): CoderlineCallOptions {
  const given = options?.coderline;
  if (given === undefined) return {};
  const unknown = Object.keys(given).filter((key) => key !== 'sessionId');
  const problems = unknown.map((key) => `providerOptions.coderline.${key} is not an option (known: sessionId)`);
  if (given.sessionId !== undefined && typeof given.sessionId !== 'string') problems.push('providerOptions.coderline.sessionId must be a string');
  if (problems.length) throw new InvalidOptionsError(problems);
  return given.sessionId === undefined ? {} : { sessionId: given.sessionId as string };
}

export class CoderlineLanguageModel<P extends string = string> implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider: string;
  readonly modelId: string;
  /** None: the AI SDK downloads a URL and hands over its bytes, which go to the CLI as a file. */
  readonly supportedUrls: Record<string, RegExp[]> = {};
  private readonly coder: Coder<P>;
  private readonly toolNames: ReadonlySet<string>;
  private readonly runLimits: Pick<RunOpts, 'maxTurns' | 'strictSchema'>;
  private readonly live: boolean;

  constructor(cli: P | AdapterSpec<P>, settings: CoderlineModelSettings = {}) {
    const { tools, maxTurns, strictSchema, live, ...start } = settings;
    if (live !== undefined && typeof live !== 'boolean') throw new InvalidOptionsError(['live must be a boolean']);
    const bridged = tools ? bridgedTools(tools) : undefined;
    this.coder = createCoder(cli as ProviderName, { ...start, ...(bridged ? { tools: bridged } : {}) }) as unknown as Coder<P>;
    this.provider = `coderline.${this.coder.adapter.name}`;
    this.modelId = settings.model ?? 'default';
    this.toolNames = new Set(Object.keys(tools ?? {}));
    this.runLimits = { ...(maxTurns !== undefined ? { maxTurns } : {}), ...(strictSchema !== undefined ? { strictSchema } : {}) };
    this.live = live === true;
    const { adapter } = this.coder;
    if (this.live && !adapter.live) throw new FeatureNotSupportedError(adapter.name, 'live', `${adapter.name} has no live mode: leave live unset.`);
    // Told when the model is made, with the setting that fixes it (a one-shot run would say coder.open()).
    if (settings.canUseTool && !this.live && !adapter.permissionPromptTool) {
      throw new FeatureNotSupportedError(adapter.name, 'canUseTool', `${adapter.name} asks the host only in a live session: set live: true on the model.`);
    }
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    return collectParts(await this.turn(options, false));
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    return { stream: await this.turn(options, true) };
  }

  /** Removes the coder's private state: sessions this model started cannot be resumed after. */
  close(): Promise<void> {
    return this.coder.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** Starts the turn (every check first: a call the CLI cannot honour fails before anything spawns). */
  private async turn(options: LanguageModelV4CallOptions, streaming: boolean): Promise<ReadableStream<LanguageModelV4StreamPart>> {
    const { adapter } = this.coder;
    const plan = planCall(adapter, options);
    checkCallTools(adapter.name, options.tools, this.toolNames);
    const { sessionId } = callOptionsOf(options.providerOptions);
    const rendered = renderPrompt(options.prompt, sessionId !== undefined);
    const placed = placeSystem(adapter, rendered, this.coder.options.appendSystemPrompt);
    const warnings: SharedV4Warning[] = [...plan.warnings, ...rendered.warnings, ...placed.warnings];
    const text = plan.jsonWithoutSchema ? `${placed.text}\n\nAnswer with one JSON value and nothing else.` : placed.text;
    const start: SharedStartOpts = {
      ...(plan.reasoningEffort ? { reasoningEffort: plan.reasoningEffort } : {}),
      ...(placed.appendSystemPrompt !== undefined ? { appendSystemPrompt: placed.appendSystemPrompt } : {}),
    };
    const turnOpts: RunOpts = {
      ...this.runLimits,
      ...(plan.outputSchema ? { outputSchema: plan.outputSchema } : {}),
      ...(streaming && adapter.capabilities.streamPartialMessages ? { streamPartialMessages: true } : {}),
    };

    const attachments = await writeAttachments(adapter.name, rendered.files);
    const abandon = new AbortController();
    const signal = options.abortSignal ? AbortSignal.any([options.abortSignal, abandon.signal]) : abandon.signal;
    const perTurn: RunOpts = {
      signal,
      ...(attachments.images.length ? { images: attachments.images } : {}),
      ...(attachments.files.length ? { files: attachments.files } : {}),
    };
    let run: RunStream<unknown, P>;
    let cleanup = () => attachments.remove();
    try {
      if (this.live) {
        // Run options that are launch flags of some CLI's live mode go to open(); a send() takes the rest.
        const live = await this.coder.open({ ...start, ...turnOpts }, sessionId === undefined ? undefined : { sessionId });
        cleanup = async () => void (await Promise.all([attachments.remove(), live.close()]));
        run = live.send(text, perTurn);
      } else {
        const session = sessionId === undefined ? this.coder.start(start) : this.coder.resume(sessionId, start);
        run = session.stream(text, { ...turnOpts, ...perTurn });
      }
    } catch (error) {
      await cleanup();
      throw error;
    }
    return partStream(run, cleanup, abandon, {
      warnings,
      signal: options.abortSignal,
      declaredTools: new Set((options.tools ?? []).map((tool) => tool.name)),
      json: options.responseFormat?.type === 'json' ? { schema: plan.outputSchema !== undefined } : undefined,
      raw: options.includeRawChunks === true,
    });
  }
}

interface PartStreamOptions {
  warnings: SharedV4Warning[];
  signal: AbortSignal | undefined;
  declaredTools: ReadonlySet<string>;
  json: { schema: boolean } | undefined;
  raw: boolean;
}

/**
 * Parts the stream may hold before the consumer reads them: each pull translates events until the queue
 * holds this many, so a pull (and its promise) is paid per batch, not per part (docs/performance.md).
 */
const PARTS_AHEAD = 256;

/** The run's events as parts, read as the consumer pulls; cancelling the stream stops the run. */
function partStream<P extends string>(run: RunStream<unknown, P>, cleanup: () => Promise<void>, abandon: AbortController, options: PartStreamOptions): ReadableStream<LanguageModelV4StreamPart> {
  const events = run[Symbol.asyncIterator]();
  const settled = run.result.finally(cleanup);
  settled.catch(() => undefined);
  let writer: PartWriter;

  /** The last parts; an abort instead errors the stream with the signal's reason, as a cancelled request does. */
  async function finish(controller: ReadableStreamDefaultController<LanguageModelV4StreamPart>): Promise<void> {
    const result = await settled;
    const ending = endingOf(result, options.signal);
    if (ending.kind === 'failed' && options.signal?.aborted) return controller.error(ending.error);
    writer.end(options.json ? jsonAnswerOf(result, options.json.schema) : undefined);
    if (ending.kind === 'failed') controller.enqueue({ type: 'error', error: ending.error });
    const finishReason = ending.kind === 'finished' ? ending.finishReason : { unified: 'error' as const, raw: result.error?.code };
    controller.enqueue({ type: 'finish', finishReason, usage: usageOf(result), providerMetadata: metadataOf(result) });
    controller.close();
  }

  return new ReadableStream<LanguageModelV4StreamPart>(
    {
      start(controller) {
        writer = new PartWriter(controller, { declaredTools: options.declaredTools, jsonAnswer: options.json !== undefined, raw: options.raw });
        controller.enqueue({ type: 'stream-start', warnings: options.warnings });
      },
      async pull(controller) {
        try {
          do {
            const next = await events.next();
            if (next.done) return await finish(controller);
            writer.event(next.value);
          } while ((controller.desiredSize ?? 0) > 0);
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel() {
        abandon.abort();
        await events.return?.();
        await settled.catch(() => undefined);
      },
    },
    { highWaterMark: PARTS_AHEAD },
  );
}
