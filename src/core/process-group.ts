// A CLI runs as the leader of its own process group, so stopping it stops everything it started.
// Some CLIs start tool commands in a session of their own (pi runs bash with setsid): those escape a
// group signal, so the tree below the leader is also found and signalled, before the leader dies and
// its children are handed to init. Groups still alive when the host exits are killed synchronously.
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { onExit } from 'signal-exit';
import { unwatchGroup, watchGroup } from './watchdog.js';

const liveGroups = new Set<number>();
let exitHookInstalled = false;

interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  zombie: boolean;
}

/** Every process on the machine (Linux /proc; elsewhere an empty list, and groups alone are used). */
function processTable(): ProcessInfo[] {
  if (process.platform !== 'linux') return [];
  const table: ProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (entry.charCodeAt(0) > 57) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.push({ pid: Number(entry), ppid: Number(fields[1]), pgid: Number(fields[2]), zombie: fields[0] === 'Z' });
    } catch {
      // gone while we looked
    }
  }
  return table;
}

/** Live processes of the group, plus every live descendant of `known` pids (wherever their group). */
function membersOf(pgid: number, known: Set<number>, table = processTable()): Set<number> {
  const members = new Set<number>();
  const children = new Map<number, number[]>();
  for (const info of table) {
    if (info.zombie) continue;
    // A known process stays a member after its parent died and init adopted it.
    if (info.pgid === pgid || known.has(info.pid)) members.add(info.pid);
    children.set(info.ppid, [...(children.get(info.ppid) ?? []), info.pid]);
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

function sendTo(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

export function sendToGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  return sendTo(-pgid, signal);
}

function signalAll(pgid: number, members: Set<number>, signal: NodeJS.Signals): void {
  sendToGroup(pgid, signal);
  for (const pid of members) sendTo(pid, signal);
}

function killAllLiveGroups(): void {
  // Reading the whole process table at every host exit cost 20–200 ms of CPU for nothing.
  if (liveGroups.size === 0) return;
  const table = processTable();
  for (const pgid of liveGroups) signalAll(pgid, membersOf(pgid, new Set(), table), 'SIGKILL');
}

/** Remembers a group so it is killed if the host exits first. */
export function trackGroup(pgid: number): void {
  if (!exitHookInstalled) {
    // signal-exit runs this synchronously before the host dies, and re-raises the signal afterwards.
    onExit(killAllLiveGroups, { alwaysLast: true });
    exitHookInstalled = true;
  }
  liveGroups.add(pgid);
  watchGroup(pgid);
}

export function untrackGroup(pgid: number): void {
  liveGroups.delete(pgid);
  unwatchGroup(pgid);
}

/** True while a process of the group exists that is not a zombie (zombies answer signal 0 too). */
export function isGroupAlive(pgid: number): boolean {
  if (!sendToGroup(pgid, 0)) return false;
  if (process.platform !== 'linux') return true;
  return processTable().some((info) => info.pgid === pgid && !info.zombie);
}

async function waitGone(pgid: number, known: Set<number>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    const alive = membersOf(pgid, known);
    for (const pid of alive) known.add(pid);
    if (alive.size === 0 && !isGroupAlive(pgid)) return true;
    if (Date.now() >= deadline) return false;
    await sleep(20);
  }
}

/**
 * Stops a whole group and the tree below its leader: each signal in turn, waiting its grace period,
 * SIGKILL last. Resolves once none of those processes is left.
 */
export async function terminateGroup(
  pgid: number,
  steps: ReadonlyArray<readonly [NodeJS.Signals, number]>,
): Promise<void> {
  // Found before the first signal: once the leader dies, its children belong to init.
  const known = membersOf(pgid, new Set());
  for (const [signal, graceMs] of steps) {
    signalAll(pgid, membersOf(pgid, known), signal);
    if (await waitGone(pgid, known, graceMs)) return;
  }
  signalAll(pgid, membersOf(pgid, known), 'SIGKILL');
  await waitGone(pgid, known, 5_000);
}

/** Abort: a chance to finish cleanly, then firmer. */
export const ABORT_STEPS = [['SIGINT', 300], ['SIGTERM', 500]] as const;
/** Stall, lingering after the final record, leftovers after exit: no interrupt first. */
export const STOP_STEPS = [['SIGTERM', 500]] as const;
