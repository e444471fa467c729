// Shapes the bench processes print, and the statistics the runner reports (medians with min–max:
// the machine is shared and noisy, so one number alone would say little).

export type StreamKind = 'claude' | 'codex';
export type ConsumerName = 'floor' | 'splitter' | 'coderline' | 'coderline-run' | 'coderline-unread' | 'ai-sdk' | 'ai-sdk-streamtext' | 'claude-sdk' | 'codex-sdk';

export interface ConsumerReport {
  /** Spawn to exit, in ms. */
  ms: number;
  /** CPU time (user + system) of this process over the same span: less sensitive to a busy machine. */
  cpuMs: number;
  /** Spawn to the first line or event. */
  firstMs: number;
  /** The same in the untimed first run of the process (imports, version probe). */
  coldFirstMs: number;
  /** BENCH_COLD: the untimed import before the process's first run. */
  importMs?: number;
  items: number;
  peakRssMb: number;
  /** RSS (MB) when 25/50/75/100 % of the items had arrived. */
  rssAtQuarter: number[];
}

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, min: sorted[0]!, max: sorted.at(-1)! };
}

export function formatSpread({ median, min, max }: Spread, digits = 0): string {
  return `${median.toFixed(digits)} (${min.toFixed(digits)}–${max.toFixed(digits)})`;
}

/** A markdown table, so the runner's output pastes straight into docs/performance.md. */
export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
