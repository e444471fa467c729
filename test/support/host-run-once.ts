// A host program for the version-cache test: one run of the fake adapter with the executable given
// in argv, as the first run of a fresh process; prints how it ended as one JSON line.
import { run } from '../../src/index.js';
import { done, fakeAdapter, script } from './fake-adapter.js';

const [executablePath] = process.argv.slice(2) as [string];
try {
  const result = await run(fakeAdapter(), 'x', { ...script([done()]), executablePath });
  process.stdout.write(`${JSON.stringify({ status: result.status, cliVersion: result.cliVersion })}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ thrown: (error as { code?: string }).code })}\n`);
}
