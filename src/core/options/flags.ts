// Building argv: a list flag repeated once per value.

/**
 * `--flag=a --flag=b`: the value stays bound to its flag, where `--flag a b` would let a variadic flag
 * swallow the argument after it, and a value that starts with `-` would be read as a flag (or refused).
 */
export function repeatedFlagJoined(flag: string, values: readonly string[] | undefined): string[] {
  return (values ?? []).map((value) => `${flag}=${value}`);
}
