// Options → the `pi` command line. The prompt goes on stdin (pi reads a non-TTY stdin to EOF before
// it starts, then takes it as the first message), never on argv.
import type { Invocation, InvocationContext, SessionTarget } from '../../core/adapter.js';
import { promptWithOutputSchema } from '../../core/schema-prompt.js';
import type { ReasoningEffort, ResolvedOpts } from '../../options.js';
import { PI_READ_ONLY_TOOLS } from './capabilities.js';

/** pi's `--thinking` levels; pi calls "none" `off`. */
const THINKING: Record<ReasoningEffort, string> = {
  none: 'off',
  minimal: 'minimal',
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'xhigh',
  max: 'max',
};

function sessionArgs(session: SessionTarget, sessionId: string | undefined): string[] {
  switch (session.kind) {
    case 'resume':
      return ['--session', session.sessionId];
    case 'continue':
      return ['--continue'];
    case 'fork':
      // pi copies the history into a new session; --session-id chooses the new id (a fork inherits
      // its parent's options, so the parent's own id is not a choice).
      return ['--fork', session.sessionId, ...(sessionId && sessionId !== session.sessionId ? ['--session-id', sessionId] : [])];
    case 'new':
      return sessionId ? ['--session-id', sessionId] : [];
  }
}

/**
 * The tool allowlist: allowedTools and permissionPolicy.allow together; plan mode keeps only pi's
 * read-only tools (of the allowed ones, when some are listed).
 */
export function toolAllowlist(opts: ResolvedOpts): string[] | undefined {
  const allowed = [...new Set([...(opts.allowedTools ?? []), ...(opts.permissionPolicy?.allow ?? [])])];
  if (opts.permissionPolicy?.mode === 'plan') {
    const readOnly: readonly string[] = PI_READ_ONLY_TOOLS;
    return allowed.length ? allowed.filter((tool) => readOnly.includes(tool)) : [...readOnly];
  }
  return allowed.length ? allowed : undefined;
}

export function piArgs(opts: ResolvedOpts, session: SessionTarget): string[] {
  const args = ['--mode', 'json', '--print'];
  const flag = (name: string, value: string | undefined) => {
    if (value !== undefined) args.push(name, value);
  };
  const toggle = (name: string, on: boolean | undefined) => {
    if (on) args.push(name);
  };

  flag('--provider', opts.piProvider);
  flag('--model', opts.model);
  if (opts.piModels?.length) flag('--models', opts.piModels.join(','));
  if (opts.reasoningEffort) flag('--thinking', THINKING[opts.reasoningEffort]);

  const tools = toolAllowlist(opts);
  // An empty allowlist (plan mode with no read-only tool allowed) means no tools at all.
  if (tools) args.push(...(tools.length ? ['--tools', tools.join(',')] : ['--no-tools']));
  if (opts.permissionPolicy?.deny?.length) flag('--exclude-tools', opts.permissionPolicy.deny.join(','));

  flag('--system-prompt', opts.systemPrompt);
  flag('--append-system-prompt', opts.appendSystemPrompt);

  toggle('--no-session', opts.piNoSession);
  flag('--session-dir', opts.piSessionDir);
  args.push(...sessionArgs(session, opts.sessionId));

  toggle('--no-context-files', opts.piNoContextFiles);
  toggle('--no-extensions', opts.piNoExtensions);
  toggle('--no-skills', opts.piNoSkills);
  toggle('--no-prompt-templates', opts.piNoPromptTemplates);
  return args;
}

export function buildPiInvocation(ctx: InvocationContext): Invocation {
  const stdin = ctx.outputJsonSchema ? promptWithOutputSchema(ctx.prompt, ctx.outputJsonSchema) : ctx.prompt;
  return {
    args: piArgs(ctx.opts, ctx.session),
    // No startup network checks (update and package lookups) in headless runs; extraEnv can undo it.
    env: { PI_OFFLINE: '1' },
    stdin,
  };
}
