// Help texts, built from the same flag tables the parsers use, so they cannot list a flag that
// does not exist or miss one that does.
import { EXIT } from './exit-codes.js';
import { doctorFlags } from './doctor.js';
import { flagAliases, optionFlags, type OptionFlag } from './flags.js';
import { replayFlags } from './replay.js';
import { commandFlags } from './run-args.js';

interface FlagDoc {
  type: string;
  short?: string;
  multiple?: boolean;
  description: string;
}

function table(rows: Array<[string, string]>): string {
  const width = Math.min(34, Math.max(...rows.map(([left]) => left.length)) + 2);
  return rows.map(([left, right]) => (left.length + 2 > width ? `  ${left}\n  ${''.padEnd(width)}${right}` : `  ${left.padEnd(width)}${right}`)).join('\n');
}

function ownFlags(flags: Readonly<Record<string, FlagDoc>>, skip: readonly string[] = []): Array<[string, string]> {
  return Object.entries(flags)
    .filter(([name]) => !skip.includes(name))
    .map(([name, flag]) => [`${flag.short ? `-${flag.short}, ` : ''}--${name}${flag.type === 'string' ? ' VALUE' : ''}`, flag.description]);
}

const valueHint: Record<OptionFlag['kind'], string> = {
  string: ' TEXT',
  number: ' N',
  boolean: '',
  list: ' A,B',
  repeated: '=ARG',
  pairs: ' KEY=VALUE',
  'typed-pairs': ' KEY=VALUE',
  json: ' JSON',
};

function optionRows(): Array<[string, string]> {
  return optionFlags().map((option) => {
    const alias = Object.keys(flagAliases).find((name) => flagAliases[name] === option.key);
    const value = option.choices && option.kind === 'string' ? ` ${option.choices.join('|')}` : valueHint[option.kind];
    const repeat = option.kind === 'pairs' || option.kind === 'typed-pairs' || option.kind === 'repeated' ? ' (repeatable)' : '';
    return [`--${option.flag}${value}`, `${option.description}${repeat}${alias ? ` (alias --${alias})` : ''} [${option.key}]`];
  });
}

const exitCodes = table([
  [String(EXIT.success), 'success'],
  [String(EXIT.agentError), 'the agent failed (API error, CLI exit, turn or budget limit)'],
  [String(EXIT.usage), 'wrong command line or options; nothing ran'],
  [String(EXIT.invalidOutput), 'the answer did not match --schema'],
  [String(EXIT.stalled), 'stalled (no output for --stall-timeout-ms) or --timeout reached'],
  [String(EXIT.cliUnavailable), 'the CLI is not installed or its version is unsupported'],
  [String(EXIT.cancelled), 'cancelled by Ctrl-C or SIGTERM'],
]);

export function mainHelp(): string {
  return `coderline: drive Claude Code, Codex, Copilot or Pi from the command line, with one output format.

Usage:
  coderline run --cli claude|codex|copilot|pi|gemini [flags] PROMPT | -
  coderline record --cli NAME -o run.jsonl [flags] PROMPT | -
  coderline replay run.jsonl [--pretty]
  coderline doctor [--json] [--probe [--cli NAME]]

Run \`coderline COMMAND --help\` for the flags of a command.
Docs ship with the package, in node_modules/coderline/: docs/cli.md (this command), README.md, docs/api.md.
`;
}

export function runHelp(mode: 'run' | 'record'): string {
  const intro = mode === 'run'
    ? 'Runs one prompt. Progress goes to stderr, the answer to stdout.'
    : 'Runs one prompt like `run` and writes the raw stdout lines of the CLI to -o FILE, after a header\nline naming the CLI and its version. `coderline replay FILE` turns it into events again.';
  return `Usage: coderline ${mode} --cli claude|codex|copilot|pi|gemini [flags] PROMPT
       coderline ${mode} --cli NAME [flags] -     (the prompt is read from stdin)

${intro}

Command flags:
${table(ownFlags(commandFlags, mode === 'run' ? ['output'] : []))}

SDK options (each flag sets the option named in brackets; lists take commas or repeats):
${table(optionRows())}

Exit codes:
${exitCodes}
`;
}

export function replayHelp(): string {
  return `Usage: coderline replay FILE [--pretty]

Prints the events the recorded lines translate to, one JSON line each (ts is always 0, so the
output is the same on every run). FILE is a \`coderline record\` file, or bare stdout lines with --cli.

Flags:
${table(ownFlags(replayFlags))}
`;
}

export function doctorHelp(): string {
  return `Usage: coderline doctor [--json]
       coderline doctor --probe [--cli NAME] [--json]

Lists each CLI: installed or not, where its version stands (tested, in range but untested, newer
than tested, or too old, with the command that installs the newest tested one) and the credentials
it would use (variable names only, never values). Exit 0 when at least one CLI is ready, ${EXIT.cliUnavailable} otherwise.

With --probe, each installed CLI (or only --cli NAME) also has a short conversation with a fake model
on 127.0.0.1 (a text answer, a shell command, a 401), and the report names any drift: records the
adapter does not recognise, expected fields missing, outcomes or exit codes that classify differently.
Exit 0 without drift, ${EXIT.drift} with drift, ${EXIT.cliUnavailable} when no CLI could be probed.

Flags:
${table(ownFlags(doctorFlags))}
`;
}
