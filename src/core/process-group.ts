// A CLI runs as the leader of its own process group, so stopping it stops everything it started.
// Groups still alive when the host process exits or is signalled are killed synchronously.
import { readdirSync, readFileSync } from 'node:fs';
import { onExit } from 'signal-exit';

const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killAllLiveGroups(): void {
  for (const pgid of liveGroups) sendToGroup(pgid, 'SIGKILL');
}

/** Remembers a group so it is killed if the host exits first. */
export function trackGroup(pgid: number): void {
  if (!exitHookInstalled) {
    // signal-exit runs this synchronously before the host dies, and re-raises the signal afterwards.
    onExit(killAllLiveGroups, { alwaysLast: true });
    exitHookInstalled = true;
  }
  liveGroups.add(pgid);
}

export function untrackGroup(pgid: number): void {
  liveGroups.delete(pgid);
}

export function sendToGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** True while a process of the group exists that is not a zombie. */
export function isGroupAlive(pgid: number): boolean {
  if (!sendToGroup(pgid, 0)) return false;
  if (process.platform !== 'linux') return true;
  // Zombies answer signal 0 too; without a reaping init they would look alive forever.
  for (const entry of readdirSync('/proc')) {
    if (entry.charCodeAt(0) > 57) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
    } catch {
      // gone while we looked
    }
  }
  return false;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isGroupAlive(pgid)) return true;
    await sleep(20);
  }
  return !isGroupAlive(pgid);
}

/**
 * Stops a whole group: each signal in turn, waiting its grace period for the group to go,
 * SIGKILL last. Resolves once no process of the group is left.
 */
export async function terminateGroup(
  pgid: number,
  steps: ReadonlyArray<readonly [NodeJS.Signals, number]>,
): Promise<void> {
  for (const [signal, graceMs] of steps) {
    if (!sendToGroup(pgid, signal)) return;
    if (await waitGone(pgid, graceMs)) return;
  }
  sendToGroup(pgid, 'SIGKILL');
  await waitGone(pgid, 5_000);
}

/** Abort: a chance to finish cleanly, then firmer. */
export const ABORT_STEPS = [['SIGINT', 300], ['SIGTERM', 500]] as const;
/** Stall, lingering after the final record, leftovers after exit: no interrupt first. */
export const STOP_STEPS = [['SIGTERM', 500]] as const;
