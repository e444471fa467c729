// A host program for the exit-cleanup test: starts a run whose CLI hangs (with a grandchild),
// prints the pids, and waits to be signalled.
import { run } from '../../src/index.js';
import { fakeAdapter, script } from './fake-adapter.js';

void run(fakeAdapter(), 'x', {
  ...script([{ grandchild: {} }, { hang: 1 }]),
  onEvent: (event) => {
    if (event.type === 'progress' && event.subtype === 'grandchild') {
      const { pid } = event.raw as { pid: number };
      process.stdout.write(`${JSON.stringify({ grandchild: pid })}\n`);
    }
  },
});
