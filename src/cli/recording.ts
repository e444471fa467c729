// A recording: one header line naming the CLI, its version and what the translator needs to know,
// then the CLI's stdout lines exactly as printed. Without the header the lines are a fixture.
import type { OneShotOpts, ProviderName, RunStatus, SessionTarget } from '../index.js';

export const RECORDING_FORMAT = 1;

export interface RecordingHeader {
  coderline: 'recording';
  format: typeof RECORDING_FORMAT;
  cli: ProviderName;
  cliVersion: string | null;
  /** How the run related to earlier ones (some translators check a resume). */
  session: SessionTarget;
  /** The options the translator reads; nothing from the environment, no paths. */
  opts: OneShotOpts;
  status: RunStatus;
  exitCode: number | null;
}

/** Options a recording leaves out: environment values and MCP servers' env and headers can hold secrets, paths are the user's own. */
const PRIVATE_OPTIONS = new Set(['extraEnv', 'unsetEnv', 'executablePath', 'workingDirectory', 'addDirs', 'piSessionDir', 'codexImages', 'images', 'files', 'mcpServers']);

export function shareableOptions(opts: Readonly<Record<string, unknown>>): OneShotOpts {
  return Object.fromEntries(Object.entries(opts).filter(([key, value]) => !PRIVATE_OPTIONS.has(key) && typeof value !== 'function')) as OneShotOpts;
}

export function formatRecording(header: RecordingHeader, rawLines: readonly string[]): string {
  return [JSON.stringify(header), ...rawLines].map((line) => `${line}\n`).join('');
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
