// Building argv: flags repeated once per value, in the two spellings CLIs accept.

/** `--flag a --flag b`: the flag before every value. */
export function repeatedFlag(flag: string, values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((value) => [flag, value]);
}

/**
 * `--flag=a --flag=b`: for flags that take several values, where `--flag a b` would swallow the
 * argument after it.
 */
export function repeatedFlagJoined(flag: string, values: readonly string[] | undefined): string[] {
  return (values ?? []).map((value) => `${flag}=${value}`);
}
