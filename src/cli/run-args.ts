// `coderline run|record` command lines → what to run. Parsing only: files and stdin are read later.
import { parseArgs } from 'node:util';
import type { ProviderName, SessionTarget } from '../index.js';
import { flagAliases, optionFlagConfig, optionFlags, optionsFromFlags } from './flags.js';
import { closestName, UsageError } from './usage-error.js';

export const PROVIDERS: readonly ProviderName[] = ['claude', 'codex', 'copilot', 'pi', 'gemini', 'opencode'];

/** The command's own flags; every other flag is an SDK option (see flags.ts). */
export const commandFlags = {
  cli: { type: 'string', description: 'Which agent CLI runs the prompt: claude, codex, copilot, pi, gemini or opencode (required)' },
  json: { type: 'boolean', description: 'Print one JSON result on stdout instead of the answer text' },
  jsonl: { type: 'boolean', description: 'Print every event as a JSON line on stdout while it runs' },
  schema: { type: 'string', description: 'JSON Schema file: the answer must be JSON matching it (printed as JSON)' },
  plan: { type: 'boolean', description: 'Read-only: the agent may look but not change anything (permissionPolicy.mode plan)' },
  bypass: { type: 'boolean', description: 'No permission checks at all (permissionPolicy.mode bypass)' },
  allow: { type: 'string', multiple: true, description: 'Tools allowed without asking; repeat or separate with commas' },
  deny: { type: 'string', multiple: true, description: 'Tools the agent must not use; repeat or separate with commas' },
  resume: { type: 'string', description: 'Continue the session with this id' },
  continue: { type: 'boolean', description: "Continue the CLI's latest session in the working directory" },
  fork: { type: 'string', description: 'Start a new session from a copy of the session with this id' },
  'fake-model': { type: 'string', description: 'JSON script file: a fake model on 127.0.0.1 answers by it instead of the real API (offline; coderline/testing)' },
  timeout: { type: 'string', description: 'Abort the run after this many seconds (exit code 4)' },
  quiet: { type: 'boolean', short: 'q', description: 'No progress on stderr' },
  verbose: { type: 'boolean', short: 'v', description: "Progress also shows messages, reasoning and the CLI's stderr" },
  output: { type: 'string', short: 'o', description: 'record: the file the recording is written to (required)' },
  help: { type: 'boolean', short: 'h', description: 'Show this help' },
} as const;

export interface RunPlan {
  cli: ProviderName;
  /** The prompt text, or '-' to read it from stdin. */
  prompt: string;
  output: 'text' | 'json' | 'jsonl';
  schemaFile: string | undefined;
  /** A script for coderline/testing's fake model, which then answers the CLI's model calls. */
  fakeModelFile: string | undefined;
  session: SessionTarget;
  /** SDK options from the flags (permission flags folded into permissionPolicy). */
  options: Record<string, unknown>;
  timeoutMs: number | undefined;
  quiet: boolean;
  verbose: boolean;
  recordTo: string | undefined;
}

type Mode = 'run' | 'record';

function knownFlags(): string[] {
  return [...Object.keys(commandFlags), ...optionFlags().map((option) => option.flag), ...Object.keys(flagAliases)];
}

/** parseArgs errors name the problem; this adds the closest flag and where to read more. */
function explainParseError(error: unknown, mode: Mode): UsageError {
  const message = error instanceof Error ? error.message : String(error);
  const hint = `Run \`coderline ${mode} --help\` for every flag.`;
  const unknown = /Unknown option '(-{1,2})([^']+)'/.exec(message);
  if (unknown) {
    const typed = unknown[2] ?? '';
    const near = unknown[1] === '--' ? closestName(typed, knownFlags()) : undefined;
    const prompt = `A prompt that starts with "-" goes after \`--\`: coderline ${mode} --cli claude -- "${unknown[1]}${typed} …".`;
    return new UsageError(`unknown flag ${unknown[1]}${typed}${near ? ` (did you mean --${near}?)` : ''}`, `${hint} ${prompt}`);
  }
  const missing = /Option '([^']+)' argument missing/.exec(message);
  if (missing) return new UsageError(`${missing[1]} needs a value`, hint);
  return new UsageError(message.split('\n')[0] ?? message, hint);
}

export function parseRunArgs(argv: readonly string[], mode: Mode): RunPlan | 'help' {
  const config = { ...optionFlagConfig(), ...commandFlags };
  let parsed: ReturnType<typeof parseArgs<{ options: typeof config; allowPositionals: true; strict: true; args: string[] }>>;
  try {
    parsed = parseArgs({ args: [...argv], options: config, allowPositionals: true, strict: true });
  } catch (error) {
    throw explainParseError(error, mode);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';

  const hint = `Run \`coderline ${mode} --help\`.`;
  const cli = values.cli;
  if (cli === undefined) throw new UsageError('--cli is required', `Choose one of ${PROVIDERS.join(', ')}, e.g. coderline ${mode} --cli claude "Explain this repo"`);
  if (!(PROVIDERS as readonly string[]).includes(cli)) {
    throw new UsageError(`unknown CLI "${cli}"`, `--cli takes one of ${PROVIDERS.join(', ')}.`);
  }
  if (positionals.length === 0) throw new UsageError('no prompt given', `Pass the prompt as an argument, or \`-\` to read it from stdin. ${hint}`);
  if (values.json && values.jsonl) throw new UsageError('--json and --jsonl cannot be combined', 'Pick one: --json prints the result, --jsonl the event stream.');
  if (values.plan && values.bypass) throw new UsageError('--plan and --bypass cannot be combined', '--plan is read-only, --bypass turns every check off: pick one.');
  const sessionFlags = (['resume', 'continue', 'fork'] as const).filter((name) => values[name] !== undefined && values[name] !== false);
  if (sessionFlags.length > 1) throw new UsageError(`--${sessionFlags.join(' and --')} cannot be combined`, 'A run either resumes, continues or forks one session.');
  if (mode === 'record' && values.output === undefined) throw new UsageError('record needs -o FILE', 'Example: coderline record --cli claude -o run.jsonl "Say hello"');
  if (mode === 'run' && values.output !== undefined) throw new UsageError('-o/--output belongs to `coderline record`', 'To save the raw lines, use: coderline record -o FILE …');

  let timeoutMs: number | undefined;
  if (values.timeout !== undefined) {
    const seconds = Number(values.timeout);
    if (!(seconds > 0)) throw new UsageError(`--timeout expects seconds greater than 0, got "${values.timeout}"`, 'Example: --timeout 600');
    timeoutMs = Math.round(seconds * 1000);
  }

  const options = optionsFromFlags(values);
  const split = (items: string[] | undefined) => items?.flatMap((item) => item.split(',')).map((item) => item.trim()).filter(Boolean);
  const allow = split(values.allow);
  const deny = split(values.deny);
  const policyMode = values.plan ? 'plan' : values.bypass ? 'bypass' : undefined;
  if (policyMode || allow || deny) options.permissionPolicy = { ...(policyMode ? { mode: policyMode } : {}), ...(allow ? { allow } : {}), ...(deny ? { deny } : {}) };

  const session: SessionTarget = values.resume !== undefined
    ? { kind: 'resume', sessionId: values.resume }
    : values.fork !== undefined
      ? { kind: 'fork', sessionId: values.fork }
      : values.continue ? { kind: 'continue' } : { kind: 'new' };

  return {
    cli: cli as ProviderName,
    prompt: positionals.join(' '),
    output: values.json ? 'json' : values.jsonl ? 'jsonl' : 'text',
    schemaFile: values.schema,
    fakeModelFile: values['fake-model'],
    session,
    options,
    timeoutMs,
    quiet: values.quiet === true,
    verbose: values.verbose === true,
    recordTo: values.output,
  };
}
