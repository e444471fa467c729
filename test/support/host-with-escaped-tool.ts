// A host program for the exit-cleanup test with the process table read through `ps`, as on macOS:
// starts a run whose CLI hangs with a grandchild in a session of its own (a group signal misses it),
// prints the grandchild's pid, and waits to be signalled.
import { psSource, useProcessTableSource } from '../../src/core/process/process-table.js';
import { run } from '../../src/index.js';
import { fakeAdapter, script } from './fake-adapter.js';

useProcessTableSource(psSource);
void run(fakeAdapter(), 'x', {
  ...script([{ grandchild: { ownSession: true } }, { hang: 1 }]),
  onEvent: (event) => {
    if (event.type === 'progress' && event.subtype === 'grandchild') {
      const { pid } = event.raw as { pid: number };
      process.stdout.write(`${JSON.stringify({ grandchild: pid })}\n`);
    }
  },
});
