// A host program for the session-history test: resumes a session in a process that never ran it
// (nothing in memory) and prints the run's outcome as one JSON line. argv: cli, session id, prompt;
// the start options come as JSON in CODERLINE_TEST_OPTIONS.
import { createCoder, type ProviderName, type SharedStartOpts } from '../../src/index.js';

const [cli, sessionId, prompt] = process.argv.slice(2) as [ProviderName, string, string];
const coder = createCoder(cli, JSON.parse(process.env.CODERLINE_TEST_OPTIONS ?? '{}') as SharedStartOpts);
try {
  const result = await coder.resume(sessionId).run(prompt);
  process.stdout.write(`${JSON.stringify({ status: result.status, text: result.text, usage: result.usage, error: result.error?.message })}\n`);
} finally {
  await coder.close();
}
