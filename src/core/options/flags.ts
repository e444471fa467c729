// Building argv: a list flag repeated once per value.

/**
 * `--flag=a --flag=b`: the value stays bound to its flag, where `--flag a b` would let a variadic flag
 * swallow the argument after it, and a value that starts with `-` would be read as a flag (or refused).
 */
export function repeatedFlagJoined(flag: string, values: readonly string[] | undefined): string[] {
  return (values ?? []).map((value) => `${flag}=${value}`);
}

/**
 * Tool rules that a CLI would read as more than one: it splits a list flag's value at separators
 * outside parentheses (`Bash(git *)` is one rule), so `read,bash` would be two. One issue per rule.
 */
export function rulesSplitByCli(lists: Record<string, readonly string[] | undefined>, separators: RegExp, cli: string): string[] {
  const splits = (rule: string) => {
    let depth = 0;
    for (const char of rule) {
      if (char === '(') depth += 1;
      else if (char === ')') depth = Math.max(0, depth - 1);
      else if (depth === 0 && separators.test(char)) return true;
    }
    return false;
  };
  return Object.entries(lists).flatMap(([option, rules]) =>
    (rules ?? []).filter(splits).map((rule) => `${option}: ${JSON.stringify(rule)} holds a separator outside parentheses, which ${cli} reads as two rules`),
  );
}
