// A host program for the host-exit tests: starts one run of a real CLI with the options in
// HOST_OPTS (JSON; plus a custom tool when HOST_TOOL=1), never closes its coder, and stays alive until
// it is signalled. The test kills it mid-run and looks at what is left.
import { z } from 'zod';
import { createCoder, tool, type ProviderName, type SharedStartOpts } from '../../src/index.js';

const [cli] = process.argv.slice(2) as [ProviderName];
const opts = JSON.parse(process.env.HOST_OPTS ?? '{}') as SharedStartOpts;
const tools = process.env.HOST_TOOL === '1'
  ? [tool({ name: 'lookup', description: 'Looks a word up.', input: z.object({ word: z.string() }), handler: ({ word }) => word })]
  : undefined;
const coder = createCoder(cli, tools ? { ...opts, tools } : opts);
void coder.start().run('Run the command.');
setInterval(() => {}, 1 << 30);
