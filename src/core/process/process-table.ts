// The machine's process table, read whole: which process is whose child, in which group, and which
// have exited (zombies). Linux has /proc; macOS has no /proc, so `ps` is asked instead (BSD and
// procps both take `-axo` with `=` for no header). Which source is used can be forced, so the Linux
// suite runs the `ps` path end to end too.
import { execFile, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** Exited, waiting to be reaped: it answers signal 0 but runs nothing. */
  zombie: boolean;
  /** Stopped by a signal (SIGSTOP): it runs nothing until SIGCONT. */
  stopped: boolean;
}

export interface ProcessTableSource {
  readonly name: string;
  read(): Promise<ProcessInfo[]>;
  /** For the host's exit hook, which cannot wait. */
  readSync(): ProcessInfo[];
}

function readProc(): ProcessInfo[] {
  const table: ProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (entry.charCodeAt(0) > 57) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      // The command name, in parentheses, may itself contain spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.push({ pid: Number(entry), ppid: Number(fields[1]), pgid: Number(fields[2]), zombie: fields[0] === 'Z', stopped: fields[0] === 'T' });
    } catch {
      // gone while we looked
    }
  }
  return table;
}

/** Linux: one small read per process, no child process. */
export const procSource: ProcessTableSource = {
  name: '/proc',
  read: async () => readProc(),
  readSync: readProc,
};

/**
 * Live processes of the group, plus every live descendant of its leader and of `known` pids, wherever
 * their group (a tool command in a session of its own is one).
 */
export function groupAndDescendants(table: ProcessInfo[], pgid: number, known: ReadonlySet<number> = new Set()): Set<number> {
  const members = new Set<number>();
  const children = new Map<number, number[]>();
  for (const info of table) {
    if (info.zombie) continue;
    // A known process stays a member after its parent died and init adopted it.
    if (info.pgid === pgid || known.has(info.pid)) members.add(info.pid);
    const siblings = children.get(info.ppid);
    if (siblings) siblings.push(info.pid);
    else children.set(info.ppid, [info.pid]);
  }
  const queue = [pgid, ...known, ...members];
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    for (const child of children.get(pid) ?? []) {
      if (!members.has(child)) {
        members.add(child);
        queue.push(child);
      }
    }
  }
  return members;
}

const PS_ARGS = ['-axo', 'pid=,ppid=,pgid=,stat='];
/** `ps` lists a few hundred lines on a busy machine; this leaves ample room. */
const PS_MAX_BUFFER = 16 * 2 ** 20;

export function parsePs(listing: string): ProcessInfo[] {
  const table: ProcessInfo[] = [];
  for (const line of listing.split('\n')) {
    const [pid, ppid, pgid, stat] = line.trim().split(/\s+/);
    if (stat === undefined) continue;
    table.push({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), zombie: stat.startsWith('Z'), stopped: stat.startsWith('T') });
  }
  return table;
}

function psFailed(error: unknown): Error {
  return new Error(`could not list processes with \`ps ${PS_ARGS.join(' ')}\`: ${error instanceof Error ? error.message : String(error)}`);
}

/** Everywhere else (macOS): one `ps` per read. */
export const psSource: ProcessTableSource = {
  name: 'ps',
  read: () =>
    new Promise((resolve, reject) => {
      execFile('ps', PS_ARGS, { encoding: 'utf8', maxBuffer: PS_MAX_BUFFER }, (error, stdout) => (error ? reject(psFailed(error)) : resolve(parsePs(stdout))));
    }),
  readSync: () => {
    const listed = spawnSync('ps', PS_ARGS, { encoding: 'utf8', maxBuffer: PS_MAX_BUFFER });
    if (listed.error || listed.status !== 0) throw psFailed(listed.error ?? listed.stderr);
    return parsePs(listed.stdout);
  },
};

let source: ProcessTableSource = process.platform === 'linux' ? procSource : psSource;

export function processTableSource(): ProcessTableSource {
  return source;
}

/** Tests force a source (the Linux suite runs the `ps` one end to end); returns the one it replaced. */
export function useProcessTableSource(next: ProcessTableSource): ProcessTableSource {
  const previous = source;
  source = next;
  return previous;
}
