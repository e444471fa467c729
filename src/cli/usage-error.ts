// A mistake in the command line: reported with what was wrong and how to fix it, exit code 2.
import { readFile } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {
  /** What to do instead (e.g. which help page to read). */
  readonly hint: string;
  constructor(message: string, hint: string) {
    super(message);
    this.name = 'UsageError';
    this.hint = hint;
  }
}

/**
 * The known name that most looks like a mistyped one: the longest shared prefix (at least three
 * characters) wins, then the same letters in another order, then a name that contains the typed one.
 */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  const shared = (name: string) => {
    let length = 0;
    while (length < name.length && name[length] === typed[length]) length += 1;
    return length;
  };
  const best = [...known].sort((a, b) => shared(b) - shared(a))[0];
  if (best !== undefined && shared(best) >= Math.min(3, typed.length)) return best;
  const letters = (name: string) => [...name].sort().join('');
  return known.find((name) => letters(name) === letters(typed)) ?? known.find((name) => name.includes(typed) || typed.includes(name));
}

/** `parseArgs`, with a bad flag reported as a UsageError that points at the command's help. */
export function parseCommandArgs<T extends ParseArgsConfig>(command: string, config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0] ?? String(error), `Run \`coderline ${command} --help\`.`);
  }
}

/** A file the command line names; one that cannot be read is a UsageError saying why (ENOENT, EACCES, …). */
export async function readNamedFile(file: string, named: string, hint: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${named}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, hint);
  }
}
