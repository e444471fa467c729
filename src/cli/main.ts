#!/usr/bin/env node
// The `coderline` command: run, record, replay, doctor.
import { InvalidOptionsError } from '../index.js';
import { exitCodeForError, EXIT } from './exit-codes.js';
import { issueInFlags } from './flags.js';
import { doctorCommand } from './doctor.js';
import { doctorHelp, mainHelp, replayHelp, runHelp } from './help.js';
import { replayCommand } from './replay.js';
import { runCommand } from './run.js';
import { parseRunArgs } from './run-args.js';
import { closestName, UsageError } from './usage-error.js';

const commands = ['run', 'record', 'replay', 'doctor'] as const;

async function dispatch(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const help = (text: string) => {
    process.stdout.write(text);
    return EXIT.success;
  };
  switch (command) {
    case 'run':
    case 'record': {
      const plan = parseRunArgs(rest, command);
      return plan === 'help' ? help(runHelp(command)) : runCommand(plan);
    }
    case 'replay': {
      const code = await replayCommand(rest);
      return code === 'help' ? help(replayHelp()) : code;
    }
    case 'doctor': {
      const code = await doctorCommand(rest);
      return code === 'help' ? help(doctorHelp()) : code;
    }
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      return help(mainHelp());
    default: {
      const near = closestName(command, commands);
      throw new UsageError(`unknown command "${command}"${near ? ` (did you mean "${near}"?)` : ''}`, `Commands: ${commands.join(', ')}. Run \`coderline --help\`.`);
    }
  }
}

// No top-level await: the build also emits this entry as CommonJS.
dispatch(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    let message = error instanceof Error ? error.message : String(error);
    if (error instanceof InvalidOptionsError) message = `invalid options:\n  - ${error.issues.map(issueInFlags).join('\n  - ')}`;
    const hint = error instanceof UsageError ? `\n${error.hint}` : '';
    process.stderr.write(`coderline: ${message}${hint}\n`);
    process.exitCode = exitCodeForError(error);
  },
);
