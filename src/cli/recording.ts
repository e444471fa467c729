// A recording: one header line naming the CLI, its version and what the translator needs to know,
// then the CLI's stdout lines exactly as printed. Without the header the lines are a fixture.
import { open } from 'node:fs/promises';
import type { OneShotOpts, ProviderName, RunStatus, SessionTarget } from '../index.js';
import { argValue, parsedJsonText, REDACTED, type Redactor } from '../core/secrets/redact.js';

export const RECORDING_FORMAT = 1;

export interface RecordingHeader {
  coderline: 'recording';
  format: typeof RECORDING_FORMAT;
  cli: ProviderName;
  cliVersion: string | null;
  /** How the run related to earlier ones (some translators check a resume). */
  session: SessionTarget;
  /** The options the translator reads; nothing from the environment, no paths, no secret values. */
  opts: OneShotOpts;
  status: RunStatus;
  exitCode: number | null;
}

/** Options a recording leaves out: environment values and MCP servers' env and headers can hold secrets, paths are the user's own. */
const PRIVATE_OPTIONS = new Set(['extraEnv', 'unsetEnv', 'executablePath', 'workingDirectory', 'addDirs', 'piSessionDir', 'codexImages', 'images', 'files', 'mcpServers']);

/** Every leaf of a value replaced, its keys kept. */
function redactedLeaves(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactedLeaves);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactedLeaves(item)]));
  return REDACTED;
}

/** Options kept by name whose values can be secrets: the values are redacted, whatever their length. */
const redactedValues: Readonly<Record<string, (value: unknown) => unknown>> = {
  codexConfig: redactedLeaves,
  copilotAdditionalMcpConfig: (value) => {
    if (typeof value !== 'string') return redactedLeaves(value);
    const parsed = parsedJsonText(value);
    return parsed !== null && typeof parsed === 'object' ? JSON.stringify(redactedLeaves(parsed)) : REDACTED;
  },
  // Flags by name: `--api-key sk-…` → `--api-key <redacted>`, `--x=sk-…` → `--x=<redacted>`.
  extraArgs: (value) => (value as string[]).map((arg) => (argValue(arg) === undefined ? arg : arg.startsWith('-') ? `${arg.slice(0, arg.indexOf('=') + 1)}${REDACTED}` : REDACTED)),
};

export function shareableOptions(opts: Readonly<Record<string, unknown>>): OneShotOpts {
  return Object.fromEntries(
    Object.entries(opts)
      .filter(([key, value]) => !PRIVATE_OPTIONS.has(key) && typeof value !== 'function')
      .map(([key, value]) => [key, redactedValues[key]?.(value) ?? value]),
  ) as OneShotOpts;
}

/** The header, then the raw lines with the run's secrets redacted: a recording is shared, onRawLine is not. */
export function formatRecording(header: RecordingHeader, rawLines: readonly string[], redactor?: Redactor): string {
  return [JSON.stringify(header), ...rawLines].map((line) => `${redactor ? redactor.text(line) : line}\n`).join('');
}

/**
 * Written for its owner only (0600), an existing file too: a recording holds the whole conversation.
 * The mode is set before anything is written.
 */
export async function writeRecording(path: string, text: string): Promise<void> {
  const file = await open(path, 'w', 0o600);
  try {
    await file.chmod(0o600);
    await file.writeFile(text);
  } finally {
    await file.close();
  }
}

/** Splits a file into its header (when it has one) and the raw lines. */
export function parseRecording(text: string): { header: RecordingHeader | undefined; lines: string[] } {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const first = lines[0];
  if (first !== undefined) {
    try {
      const parsed = JSON.parse(first) as Partial<RecordingHeader> | null;
      if (parsed?.coderline === 'recording') return { header: parsed as RecordingHeader, lines: lines.slice(1) };
    } catch {
      // not a header: the file is raw lines only
    }
  }
  return { header: undefined, lines };
}
