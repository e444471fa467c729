// A host program for the host-exit tests with the fake CLI: a coder whose runs use its state dir and
// a temp file, never closed. `hang`: the run hangs with a grandchild in a session of its own (its pid
// printed as {"grandchild": pid}) until the host is signalled; `finish`: the run ends and so does the
// host, by itself.
import { createCoder } from '../../src/index.js';
import { fakeAdapter, script } from './fake-adapter.js';

const [mode] = process.argv.slice(2) as ['hang' | 'finish'];
const adapter = fakeAdapter({
  buildInvocation: async (ctx) => {
    await ctx.coderStateDir();
    await ctx.writeTempFile('note.txt', 'temp');
    return { args: [], stdin: ctx.prompt };
  },
});
const steps = mode === 'hang' ? [{ grandchild: { ownSession: true } }, { hang: 1 }] : [{ out: { type: 'done', text: 'ok' } }];
const coder = createCoder(adapter, script(steps));
const result = await coder.start().run('x', {
  onEvent: (event) => {
    if (event.type === 'progress' && event.subtype === 'grandchild') {
      process.stdout.write(`${JSON.stringify({ grandchild: (event.raw as { pid: number }).pid })}\n`);
    }
  },
});
process.stdout.write(`${JSON.stringify({ status: result.status })}\n`);
