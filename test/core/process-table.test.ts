// The process table behind abort and stall, read the way macOS must read it (`ps`, no /proc) and
// the way Linux does, and what happens when it cannot be read at all.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { isGroupAlive as groupAliveBySdk, sendToGroup, STOP_STEPS, terminateEscapedDescendants, terminateGroup } from '../../src/core/process/process-group.js';
import { procSource, psSource, useProcessTableSource, type ProcessTableSource } from '../../src/core/process/process-table.js';
import { run, type CoderStreamEvent } from '../../src/index.js';
import { fakeAdapter, script } from '../support/fake-adapter.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { isGroupAlive, isProcessAlive, killMarked, pidsWithMarker, spawnEscapingForker, uniqueMarker } from '../support/processes.js';
import { waitFor } from '../support/wait.js';

const fake = fakeAdapter();

function grandchildOf(events: CoderStreamEvent<string>[] | undefined): number {
  const record = events?.find((e) => e.type === 'progress' && e.subtype === 'grandchild')?.raw as { pid: number };
  return record.pid;
}

/** Wraps a source, counting its reads and the reads that came in the same turn of the event loop as the one before. */
function counted(inner: ProcessTableSource) {
  const counts = { reads: 0, sameTurn: 0 };
  let turnOfLastRead = false;
  const source: ProcessTableSource = {
    name: inner.name,
    read: () => {
      counts.reads += 1;
      if (turnOfLastRead) counts.sameTurn += 1;
      turnOfLastRead = true;
      setImmediate(() => (turnOfLastRead = false));
      return inner.read();
    },
    readSync: () => inner.readSync(),
  };
  return { source, counts };
}

let previous: ProcessTableSource | undefined;
const use = (source: ProcessTableSource) => {
  previous = useProcessTableSource(source);
};
afterEach(() => {
  if (previous) useProcessTableSource(previous);
  previous = undefined;
});

describe('with the process table read through ps, as on macOS', () => {
  const abortOnGrandchild = () => {
    const controller = new AbortController();
    return {
      signal: controller.signal,
      onEvent: (event: CoderStreamEvent) => event.type === 'progress' && event.subtype === 'grandchild' && controller.abort(),
    };
  };

  it.each([
    ['abort', abortOnGrandchild, 'cancelled'],
    ['stall', () => ({ stallTimeoutMs: 1500 }), 'stalled'],
  ] as const)('%s stops a grandchild that left the process group for a session of its own', async (_name, extra, status) => {
    const { source, counts } = counted(psSource);
    use(source);
    const result = await run(fake, 'x', { ...script([{ grandchild: { ownSession: true } }, { hang: 1 }]), ...extra(), collectEvents: true });
    expect(result.status).toBe(status);
    expect(counts.reads).toBeGreaterThan(0);
    expect(isProcessAlive(grandchildOf(result.events))).toBe(false);
    expect(isGroupAlive(result.pid!)).toBe(false);
  });

  it('a group whose only process is a zombie is gone, though it still answers signal 0', async () => {
    use(psSource);
    // A parent that never reaps: its event loop is blocked, so its child stays a zombie. The child
    // leads a group of its own (detached), and the parent leads another, alive.
    const parent = spawn(process.execPath, ['-e', `
      const child = require('node:child_process').spawn('true', { detached: true, stdio: 'ignore' });
      require('node:fs').writeSync(1, child.pid + '\\n');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120000);
    `], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [line] = (await once(parent.stdout, 'data')) as [Buffer];
      const zombie = Number(line.toString());
      const until = Date.now() + 30_000;
      while (!(await psSource.read()).some((info) => info.pid === zombie && info.zombie)) {
        if (Date.now() > until) throw new Error(`process ${zombie} never became a zombie`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(sendToGroup(zombie, 0)).toBe(true);
      expect(await groupAliveBySdk(zombie)).toBe(false);
      expect(await groupAliveBySdk(parent.pid!)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('SIGTERM to the host also kills the grandchild in a session of its own', async () => {
    const host = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../support/host-with-escaped-tool.ts', import.meta.url))], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [first] = (await once(createInterface({ input: host.stdout }), 'line')) as [string];
    const { grandchild } = JSON.parse(first) as { grandchild: number };
    try {
      expect(isProcessAlive(grandchild)).toBe(true);
      const exited = once(host, 'exit');
      host.kill('SIGTERM');
      expect((await exited)[1]).toBe('SIGTERM');
      await waitFor(() => !isProcessAlive(grandchild), 10_000);
    } finally {
      if (isProcessAlive(grandchild)) process.kill(grandchild, 'SIGKILL');
    }
  });

  it('reads what /proc reads: every process with its parent, group and state', async () => {
    const [fromPs, fromProc] = [await psSource.read(), await procSource.read()];
    const self = (table: typeof fromPs) => table.find((info) => info.pid === process.pid);
    expect(self(fromPs)).toEqual(self(fromProc));
    expect(self(fromPs)).toMatchObject({ ppid: process.ppid, zombie: false });
  });
});

describe('stopping a group', () => {
  it('reads the process table once per look, never twice in one turn of the event loop', async () => {
    const { source, counts } = counted(procSource);
    use(source);
    const controller = new AbortController();
    const result = await run(fake, 'x', {
      // Ignores SIGINT and SIGTERM: the group is looked at every few ms until SIGKILL.
      ...script([{ ignoreSignals: 1 }, { grandchild: { ownSession: true } }, { hang: 1 }]),
      signal: controller.signal,
      collectEvents: true,
      onEvent: (event) => event.type === 'progress' && event.subtype === 'grandchild' && controller.abort(),
    });
    expect(result.status).toBe('cancelled');
    // At least one look before the first signal and one after each of SIGINT, SIGTERM and SIGKILL.
    expect(counts.reads).toBeGreaterThanOrEqual(4);
    expect(counts.sameTurn).toBe(0);
    expect(isProcessAlive(grandchildOf(result.events))).toBe(false);
  });

  it('a process table that cannot be read is not taken for "gone": abort still waits for the group to die', async () => {
    const broken: ProcessTableSource = {
      name: 'broken',
      read: () => Promise.reject(new Error('no process table here')),
      readSync: () => {
        throw new Error('no process table here');
      },
    };
    use(broken);
    const controller = new AbortController();
    const result = await run(fake, 'x', {
      ...script([{ ignoreSignals: 1 }, { grandchild: {} }, { hang: 1 }]),
      signal: controller.signal,
      collectEvents: true,
      onEvent: (event) => event.type === 'progress' && event.subtype === 'grandchild' && controller.abort(),
    });
    expect(result.status).toBe('cancelled');
    expect(isGroupAlive(result.pid!)).toBe(false);
    expect(isProcessAlive(grandchildOf(result.events))).toBe(false);
  });
});

describe('stopping what left the group while it keeps starting processes', () => {
  it.each([
    ['abort or stall: the group is stopped too', terminateGroup, false],
    ['a live session after an interrupt: the group is left running', terminateEscapedDescendants, true],
  ] as const)('%s; none of what left it is left behind', async (_name, stop, leaderLives) => {
    const marker = uniqueMarker('escaped-forker');
    cleanupAfterTest(() => killMarked(marker));
    const leader = spawnEscapingForker(marker);
    cleanupAfterTest(() => void sendToGroup(leader.pid!, 'SIGKILL'));
    await waitFor(() => pidsWithMarker(marker).length >= 20, 30_000);
    await stop(leader.pid!, STOP_STEPS);
    expect(pidsWithMarker(marker)).toEqual([]);
    expect(isProcessAlive(leader.pid!)).toBe(leaderLives);
  });
});
