// Process checks for tests: is anything of a run's process group still alive?
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** True while any process of the group led by `pgid` exists (zombies, which have exited, do not count). */
export function isGroupAlive(pgid: number): boolean {
  const listing = spawnSync('ps', ['-o', 'stat=', '--pgid', String(pgid)], { encoding: 'utf8' }).stdout;
  return listing.split('\n').some((state) => state.trim() !== '' && !state.trim().startsWith('Z'));
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A zombie has exited: it only waits to be reaped.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Pids of live processes whose command line contains `needle` (for leak checks by name). */
export function pidsMatching(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(needle) && isProcessAlive(Number(entry))) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}
