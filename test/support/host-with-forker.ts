// A host program for the watchdog tests: it has the watchdog watch a process group whose leader
// starts, in a session of its own, a shell that starts a marked `sleep` every 2 ms, and a directory;
// prints {"leader": pid} once the watchdog runs, and waits to be killed.
//   host-with-forker.ts <proc|ps> <marker> <dir>   (ps: the process table is read through ps, as on macOS)
import { psSource, useProcessTableSource } from '../../src/core/process/process-table.js';
import { watchDir, watchGroup } from '../../src/core/process/watchdog.js';
import { spawnEscapingForker, type Marker } from './processes.js';

const [table, marker, dir] = process.argv.slice(2) as ['proc' | 'ps', Marker, string];
if (table === 'ps') useProcessTableSource(psSource);
const leader = spawnEscapingForker(marker);
watchGroup(leader.pid!);
watchDir(dir);
// By the next tick the watchdog runs, whichever registration started it.
setImmediate(() => process.stdout.write(`${JSON.stringify({ leader: leader.pid })}\n`));
setInterval(() => {}, 1 << 30);
