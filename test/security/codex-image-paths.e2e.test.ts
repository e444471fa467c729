// codex 0.171.0 splits each --image value at commas (`-i, --image <FILE>...`). Measured: images
// ["a.png,/elsewhere/private.png"] (a path that exists as given, under a directory named "a.png,")
// sent the model two images, a.png and /elsewhere/private.png.
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { InvalidOptionsError, run } from '../../src/index.js';
import { startFakeModel } from '../../src/testing/index.js';
import { pngBase64 } from '../attachments/fixtures.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';

describe('codex (real binary): an image path is one image', () => {
  it('a path with a comma is InvalidOptionsError before codex starts; the file elsewhere is never sent', async () => {
    const fake = await startFakeModel({ api: 'openai-responses', script: [{ text: 'Done.' }] });
    const cwd = await mkdtemp(join(tmpdir(), 'coderline-codex-images-'));
    const elsewhere = await mkdtemp(join(tmpdir(), 'coderline-codex-private-'));
    cleanupAfterTest(() => fake.close(), () => rm(cwd, { recursive: true, force: true }), () => rm(elsewhere, { recursive: true, force: true }));
    const png = Buffer.from(pngBase64, 'base64');
    writeFileSync(join(cwd, 'a.png'), png);
    writeFileSync(join(elsewhere, 'private.png'), png);
    // The attacker: a job names its upload "a.png,<path of a private image>" (and makes that path exist
    // in the workspace, so the SDK's own check of the path passes).
    const hostile = `a.png,${elsewhere}/private.png`;
    mkdirSync(join(cwd, `a.png,${elsewhere}`), { recursive: true });
    writeFileSync(join(cwd, hostile), png);
    const opts = withPinnedRuntime('codex', { ...(await fake.env('codex')), workingDirectory: cwd });

    for (const images of [{ images: [hostile] }, { codexImages: [hostile] }]) {
      await expect(run(codexAdapter, 'Describe the images.', { ...opts, ...images })).rejects.toBeInstanceOf(InvalidOptionsError);
    }
    expect(fake.requests).toHaveLength(0);
    // One image is one image.
    expect(await run(codexAdapter, 'Describe the image.', { ...opts, images: ['a.png'] })).toMatchObject({ status: 'success' });
    expect(JSON.stringify(fake.requests[0]?.body).match(/input_image/g)).toHaveLength(1);
  });
});
