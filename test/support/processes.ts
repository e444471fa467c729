// Process checks for tests. The table comes from `ps` (procps on Linux, BSD ps on macOS), never from
// /proc alone, so a "nothing is left" check cannot pass vacuously where /proc does not exist: if the
// table cannot be read, the check throws. Every check looks at one run's own processes — its group, a
// pid it reported, or a marker unique to the test — never at a command string other tests may use too.
import { randomBytes } from 'node:crypto';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, realpathSync } from 'node:fs';
import { waitFor } from './wait.js';

interface ProcessEntry {
  pid: number;
  ppid: number;
  pgid: number;
  zombie: boolean;
  args: string;
}

/** Every process on the machine, as `ps` lists it (zombies included, flagged). */
export function processTable(): ProcessEntry[] {
  const listing = spawnSync('ps', ['-axww', '-o', 'pid=,ppid=,pgid=,stat=,args='], { encoding: 'utf8' });
  if (listing.status !== 0 || !listing.stdout) throw new Error(`cannot read the process table: ${listing.stderr || listing.error?.message || 'ps printed nothing'}`);
  const table: ProcessEntry[] = [];
  for (const line of listing.stdout.split('\n')) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s?(.*)$/.exec(line);
    if (!match) continue;
    const [, pid, ppid, pgid, stat, args] = match;
    table.push({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), zombie: stat!.startsWith('Z'), args: args ?? '' });
  }
  if (!table.some((entry) => entry.pid === process.pid)) throw new Error('the process table does not list this process: cannot trust it');
  return table;
}

/** True while any process of the group led by `pgid` exists (zombies, which have exited, do not count). */
export function isGroupAlive(pgid: number): boolean {
  return processTable().some((entry) => entry.pgid === pgid && !entry.zombie);
}

export function isProcessAlive(pid: number): boolean {
  return processTable().some((entry) => entry.pid === pid && !entry.zombie);
}

declare const markerBrand: unique symbol;
/** A string no other test, worker or checkout uses: made only by `uniqueMarker()`. */
export type Marker = string & { readonly [markerBrand]: true };

/**
 * A marker for a test to put in a command line (e.g. `exec -a <marker> sleep 30`), unique across
 * workers and concurrent checkouts: the pid of this worker plus random bits.
 */
export function uniqueMarker(label: string): Marker {
  return `coderline-${label}-${process.pid}-${randomBytes(4).toString('hex')}` as Marker;
}

/**
 * `marker` with `suffix` appended, for a name a command builds when it runs (`f=<marker>; tail -f "$f".run`):
 * it shows in the command lines of the processes the shell starts, not in the shell's own.
 */
export function builtMarker(marker: Marker, suffix: string): Marker {
  return `${marker}${suffix}` as Marker;
}

/**
 * A number of seconds unique to the caller (`base` plus random decimals), for commands that take no
 * free-form argument: `sleep ${uniqueSeconds(41)}` is found again by that exact text.
 */
export function uniqueSeconds(base: number): Marker {
  return `${base}.${String(randomBytes(4).readUInt32BE()).padStart(10, '0')}` as Marker;
}

/** Pids of live processes whose command line contains `marker`. */
export function pidsWithMarker(marker: Marker): number[] {
  return processTable()
    .filter((entry) => !entry.zombie && entry.pid !== process.pid && entry.args.includes(marker))
    .map((entry) => entry.pid);
}

/**
 * Pids of the processes whose working directory is `dir`, a test's own temp dir: for a CLI that sets
 * its process title, so no marker shows in its argv. Reads /proc, so it throws where there is none.
 */
export function pidsWorkingIn(dir: string): number[] {
  const pids: number[] = [];
  const wanted = realpathSync(dir);
  for (const entry of readdirSync('/proc')) {
    try {
      if (/^\d+$/.test(entry) && Number(entry) !== process.pid && realpathSync(`/proc/${entry}/cwd`) === wanted) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

/** Kills what a test's marker still finds (a cleanup for a test that failed before its run stopped). */
export function killMarked(marker: Marker): void {
  for (const pid of pidsWithMarker(marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Resolves true once a process with `marker` runs, false if none does within `timeoutMs`. */
export function markedProcessStarts(marker: Marker, timeoutMs = 120_000): Promise<boolean> {
  return waitFor(() => pidsWithMarker(marker).length > 0, timeoutMs).then(() => true, () => false);
}

/**
 * A process group whose leader starts, in a session of its own (a group signal misses it), a shell
 * that starts a long `sleep` every 2 ms: one started between a read of the process table and a signal
 * is missed unless the tree is frozen first. The shell and its sleeps carry `marker` (the script
 * travels in the environment, so nothing else does).
 */
export function spawnEscapingForker(marker: Marker): ChildProcess {
  const forker = `while :; do (exec -a ${marker} sleep 1000) & sleep 0.002; done`;
  return spawn(process.execPath, ['-e', `
    require('node:child_process').spawn('bash', ['-c', process.env.FORKER], { detached: true, stdio: 'ignore' });
    setInterval(() => {}, 60000);
  `], { detached: true, stdio: 'ignore', env: { ...process.env, FORKER: forker } });
}
