// `images` through each real CLI: the image file reaches the fake model's request (as base64 in the
// CLI's own request shape), next to the prompt; where a CLI cannot take images, nothing runs.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtInAdapters } from '../../src/registry.js';
import { createCoder, FeatureNotSupportedError, InvalidOptionsError, run, type OneShotOpts } from '../../src/index.js';
import { startFakeModel, fakeApiOf } from '../../src/testing/index.js';
import type { ProviderName } from '../../src/events.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';

/** A valid 1×1 PNG: CLIs that sniff the content or re-encode still take it for an image. */
const pngBase64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

async function setup(cli: ProviderName) {
  const model = await startFakeModel({ api: fakeApiOf[cli], script: [{ text: 'A red dot.' }] });
  const dir = await mkdtemp(join(tmpdir(), `coderline-images-${cli}-`));
  cleanupAfterTest(() => model.close(), () => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'dot.png'), Buffer.from(pngBase64, 'base64'));
  const opts: OneShotOpts = { ...withPinnedRuntime(cli, await model.env(cli)), workingDirectory: dir };
  return { model, opts };
}

describe.each(['claude', 'codex', 'pi'] as const)('images with %s (real binary)', (cli) => {
  it('the image reaches the model request as an image, with the prompt', async () => {
    const { model, opts } = await setup(cli);
    const result = await run(builtInAdapters[cli], 'What is in the picture?', { ...opts, images: ['dot.png'] });
    expect(result).toMatchObject({ status: 'success', text: 'A red dot.' });
    const body = JSON.stringify(model.requests[0]?.body);
    expect(body).toContain('What is in the picture?');
    // Anthropic: an image block with the file's bytes; Responses and chat completions: a data URL.
    expect(body).toMatch(cli === 'claude' ? /"type":"image","source":\{"type":"base64","media_type":"image\/png","data":"iVBORw0KGgo/ : /data:image\/png;base64,iVBORw0KGgo/);
  });
});

describe('images where they cannot go', () => {
  it('copilot refuses images before anything runs', async () => {
    const { opts } = await setup('copilot');
    await expect(run(builtInAdapters.copilot, 'What is in the picture?', { ...opts, images: ['dot.png'] })).rejects.toBeInstanceOf(FeatureNotSupportedError);
  });

  it('claude: a file that is not a known image type, or is missing, is refused before anything runs', async () => {
    const { model, opts } = await setup('claude');
    await expect(run(builtInAdapters.claude, 'Look', { ...opts, images: ['notes.txt'] })).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(run(builtInAdapters.claude, 'Look', { ...opts, images: ['missing.png'] })).rejects.toThrow(/cannot read "missing.png"/);
    expect(model.requests).toHaveLength(0);
  });

  it.each(['claude', 'pi'] as const)('a live session on %s refuses images at open(), before anything spawns', async (cli) => {
    const { opts } = await setup(cli);
    const coder = createCoder(builtInAdapters[cli], opts);
    cleanupAfterTest(() => coder.close());
    await expect(coder.open({ images: ['dot.png'] })).rejects.toMatchObject({ code: 'feature_not_supported', option: 'images' });
  });
});
