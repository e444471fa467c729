// What the AI SDK tests share: a fake model with a working directory of the test's own for one CLI,
// and the part types a stream showed, in order (consecutive deltas of a block counted once).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProviderName } from '../../src/index.js';
import { fakeApiOf, startFakeModel, type FakeModel, type FakeEnvOpts, type Script } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';

export async function fakeFor(cli: ProviderName, script: Script): Promise<{ model: FakeModel; opts: FakeEnvOpts & { workingDirectory: string } }> {
  const model = await startFakeModel({ api: fakeApiOf[cli], script });
  const cwd = await mkdtemp(join(tmpdir(), `coderline-ai-sdk-${cli}-`));
  cleanupAfterTest(() => model.close(), () => rm(cwd, { recursive: true, force: true }));
  return { model, opts: { ...withPinnedRuntime(cli, await model.env(cli)), workingDirectory: cwd } };
}

/** The types of the parts, a run of the same delta type as one entry: `text-delta` ×3 reads `text-delta`. */
export function partOrder(parts: ReadonlyArray<{ type: string }>): string[] {
  const order: string[] = [];
  for (const { type } of parts) if (!(type.endsWith('-delta') && order.at(-1) === type)) order.push(type);
  return order;
}
