// `coderline replay FILE`: the events a recording translates to, through coderline/replay's replay()
// with its default clock: every event gets ts 0, so two replays print the same bytes.
import type { ProviderName } from '../index.js';
import { replay } from '../replay/replay.js';
import { describeEvent } from './progress.js';
import { parseRecording } from './recording.js';
import { PROVIDERS } from './run-args.js';
import { parseCommandArgs, readNamedFile, UsageError } from './usage-error.js';

export const replayFlags = {
  cli: { type: 'string', description: 'The CLI that printed the lines; needed only for a file without a coderline header' },
  pretty: { type: 'boolean', description: 'One readable line per event instead of JSON lines' },
  verbose: { type: 'boolean', short: 'v', description: 'With --pretty: messages, reasoning and stderr too' },
  help: { type: 'boolean', short: 'h', description: 'Show this help' },
} as const;

export async function replayCommand(argv: readonly string[]): Promise<number | 'help'> {
  const { values, positionals } = parseCommandArgs('replay', { args: [...argv], options: replayFlags, allowPositionals: true, strict: true });
  if (values.help) return 'help';
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0) throw new UsageError('replay takes exactly one recording file', 'Example: coderline replay run.jsonl');

  const content = await readNamedFile(file, `"${file}"`, 'Pass a file written by `coderline record -o FILE`.');
  const { header, lines } = parseRecording(content);
  const cli = values.cli ?? header?.cli;
  if (cli === undefined) throw new UsageError(`"${file}" has no coderline header, so the CLI is unknown`, `Say which CLI printed it: --cli ${PROVIDERS.join('|')}`);
  if (!(PROVIDERS as readonly string[]).includes(cli)) throw new UsageError(`unknown CLI "${cli}"`, `--cli takes one of ${PROVIDERS.join(', ')}.`);
  if (header && values.cli !== undefined && values.cli !== header.cli) {
    throw new UsageError(`--cli ${values.cli} contradicts the recording, which is from ${header.cli}`, 'Leave --cli out for files with a header.');
  }

  for (const event of replay(cli as ProviderName, lines, header ?? {})) {
    if (!values.pretty) process.stdout.write(`${JSON.stringify(event)}\n`);
    else {
      const line = describeEvent(event, values.verbose === true) ?? (event.type === 'done' ? `done: ${event.status}${event.text ? ` — ${event.text}` : ''}` : undefined);
      if (line !== undefined) process.stdout.write(`${line}\n`);
    }
  }
  return 0;
}
