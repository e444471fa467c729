// A CLI runs as the leader of its own process group, so stopping it stops everything it started.
// Some CLIs start tool commands in a session of their own (pi runs bash with setsid): those escape a
// group signal, so the tree below the leader is also found and signalled, before the leader dies and
// its children are handed to init. Groups still alive when the host exits are killed synchronously.
import { setTimeout as sleep } from 'node:timers/promises';
import { onExit } from 'signal-exit';
import { groupAndDescendants, processTableSource, type ProcessInfo } from './process-table.js';
import { unwatchGroup, watchGroup } from './watchdog.js';

const liveGroups = new Set<number>();
let exitHookInstalled = false;
/** How often a stopping group is looked at: one read of the process table each time. */
const POLL_MS = 20;
/** How long stopping a tree waits for a process that does not stop at once. */
const FREEZE_WAIT_MS = 1_000;

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

/**
 * What is left of the group and the tree below it, from one read of the process table; `known` keeps
 * every process found, so a child init adopted is still followed. A table that cannot be read is not
 * taken for "gone": whatever answers signal 0 then counts as alive (zombies too, so only longer).
 */
async function liveMembers(pgid: number, known: Set<number>): Promise<Set<number>> {
  let table: ProcessInfo[];
  try {
    table = await processTableSource().read();
  } catch {
    return new Set([...known, pgid].filter((pid) => (pid === pgid ? sendToGroup(pgid, 0) : sendTo(pid, 0))));
  }
  const alive = groupAndDescendants(table, pgid, known);
  for (const pid of alive) known.add(pid);
  return alive;
}

function signalAll(pgid: number, members: Set<number>, signal: NodeJS.Signals): void {
  sendToGroup(pgid, signal);
  for (const pid of members) sendTo(pid, signal);
}

function killAllLiveGroups(): void {
  // Reading the whole process table at every host exit cost 20–200 ms of CPU for nothing.
  if (liveGroups.size === 0) return;
  let table: ProcessInfo[] = [];
  try {
    table = processTableSource().readSync();
  } catch {
    // The group signal below still reaches every process that stayed in the group.
  }
  for (const pgid of liveGroups) signalAll(pgid, groupAndDescendants(table, pgid), 'SIGKILL');
}

/** Remembers a group so it is killed if the host exits first. */
export function trackGroup(pgid: number): void {
  liveGroups.add(pgid);
  // First: the watchdog's fork is to follow the CLI's as closely as it can (watchdog.ts).
  watchGroup(pgid);
  if (!exitHookInstalled) {
    // signal-exit runs this synchronously before the host dies, and re-raises the signal afterwards.
    onExit(killAllLiveGroups, { alwaysLast: true });
    exitHookInstalled = true;
  }
}

export function untrackGroup(pgid: number): void {
  liveGroups.delete(pgid);
  unwatchGroup(pgid);
}

/** True while a process of the group exists that is not a zombie (zombies answer signal 0 too). */
export async function isGroupAlive(pgid: number): Promise<boolean> {
  if (!sendToGroup(pgid, 0)) return false;
  let table: ProcessInfo[];
  try {
    table = await processTableSource().read();
  } catch {
    return true;
  }
  return table.some((info) => info.pgid === pgid && !info.zombie);
}

/**
 * Waits up to `ms` for the processes to go: true once none is left. At the deadline the table is not
 * read again: the next step's look does that.
 */
async function waitGone(ms: number, lookAt: () => Promise<Set<number>>): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    await sleep(POLL_MS);
    if (Date.now() >= deadline) return false;
    if ((await lookAt()).size === 0) return true;
  }
}

/** Of `pids`, those still running (a table that cannot be read counts every one that answers signal 0). */
async function stillRunning(pids: ReadonlySet<number>): Promise<Set<number>> {
  try {
    const table = await processTableSource().read();
    return new Set(table.filter((info) => pids.has(info.pid) && !info.zombie).map((info) => info.pid));
  } catch {
    return new Set([...pids].filter((pid) => sendTo(pid, 0)));
  }
}

/**
 * What runs below the group but left it, each stopped (SIGSTOP) as it is found, until a read finds
 * nothing new and every one of them stopped: a stopped process starts no other, so none is born
 * between the read and the signal and left behind. `known` keeps every process found (init adopts a
 * dead parent's children). One that is slow to stop (in uninterruptible sleep) is waited for a while.
 */
async function freezeEscaped(pgid: number, known: Set<number>): Promise<Set<number>> {
  const deadline = Date.now() + FREEZE_WAIT_MS;
  const stopSent = new Set<number>();
  for (;;) {
    let table: ProcessInfo[];
    try {
      table = await processTableSource().read();
    } catch {
      return new Set([...known].filter((pid) => sendTo(pid, 0)));
    }
    const info = new Map(table.map((entry) => [entry.pid, entry]));
    const escaped = [...groupAndDescendants(table, pgid, known)].filter((pid) => info.get(pid)?.pgid !== pgid);
    let found = false;
    for (const pid of escaped) {
      known.add(pid);
      if (stopSent.has(pid)) continue;
      stopSent.add(pid);
      sendTo(pid, 'SIGSTOP');
      found = true;
    }
    if (!found && (escaped.every((pid) => info.get(pid)?.stopped) || Date.now() >= deadline)) return new Set(escaped);
    // A moment for the stops to land before the next read.
    await sleep(1);
  }
}

/** The signal waits while a process is stopped: it acts first thing once the process goes on. */
function signalFrozen(pids: ReadonlySet<number>, signal: NodeJS.Signals): void {
  for (const pid of pids) {
    sendTo(pid, signal);
    sendTo(pid, 'SIGCONT');
  }
}

/**
 * Each signal in turn, SIGKILL last, to what runs below the group but left it (a tool command in a
 * session of its own) and, with `group`, to the group itself; each step waits its grace period.
 * Resolves once none of those processes is left.
 */
async function stopTree(pgid: number, steps: ReadonlyArray<readonly [NodeJS.Signals, number]>, group: boolean): Promise<void> {
  // Found before the first signal: once the leader dies, its children belong to init.
  const known = new Set<number>();
  for (const [signal, graceMs] of [...steps, ['SIGKILL', 5_000] as const]) {
    const escaped = await freezeEscaped(pgid, known);
    // One signal reaches the whole group at once: none of it can fork past it.
    if (group) sendToGroup(pgid, signal);
    else if (escaped.size === 0) return;
    signalFrozen(escaped, signal);
    if (await waitGone(graceMs, group ? () => liveMembers(pgid, known) : () => stillRunning(escaped))) return;
  }
}

/** Stops a whole group and the tree below its leader. */
export function terminateGroup(pgid: number, steps: ReadonlyArray<readonly [NodeJS.Signals, number]>): Promise<void> {
  return stopTree(pgid, steps, true);
}

/** Stops what runs below the group's processes but left the group, leaving the group itself running. */
export function terminateEscapedDescendants(pgid: number, steps: ReadonlyArray<readonly [NodeJS.Signals, number]>): Promise<void> {
  return stopTree(pgid, steps, false);
}

/** Abort: a chance to finish cleanly, then firmer. */
export const ABORT_STEPS = [['SIGINT', 300], ['SIGTERM', 500]] as const;
/** Stall, lingering after the final record, leftovers after exit: no interrupt first. */
export const STOP_STEPS = [['SIGTERM', 500]] as const;
