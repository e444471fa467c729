// `images` through each real CLI: the image file reaches the fake model's request (as base64 in the
// CLI's own request shape), next to the prompt. A missing or unknown file is refused before anything spawns.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtInAdapters } from '../../src/registry.js';
import { InvalidOptionsError, run, type OneShotOpts } from '../../src/index.js';
import { startFakeModel, fakeApiOf } from '../../src/testing/index.js';
import type { ProviderName } from '../../src/events.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';
import { pngBase64 } from './fixtures.js';

async function setup(cli: ProviderName) {
  const model = await startFakeModel({ api: fakeApiOf[cli], script: [{ text: 'A red dot.' }] });
  const dir = await mkdtemp(join(tmpdir(), `coderline-images-${cli}-`));
  cleanupAfterTest(() => model.close(), () => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'dot.png'), Buffer.from(pngBase64, 'base64'));
  const opts: OneShotOpts = { ...withPinnedRuntime(cli, await model.env(cli)), workingDirectory: dir };
  return { model, opts, dir };
}

describe.each(['claude', 'codex', 'copilot', 'pi', 'gemini', 'opencode'] as const)('images with %s (real binary)', (cli) => {
  it('the image reaches the model request as an image, with the prompt', async () => {
    const { model, opts } = await setup(cli);
    const result = await run(builtInAdapters[cli], 'What is in the picture?', { ...opts, images: ['dot.png'] });
    expect(result).toMatchObject({ status: 'success', text: 'A red dot.' });
    const body = JSON.stringify(model.requests[0]?.body);
    expect(body).toContain('What is in the picture?');
    // Anthropic: an image block with the file's bytes; Gemini: inline data; Responses and chat completions: a data URL.
    const image = {
      claude: /"type":"image","source":\{"type":"base64","media_type":"image\/png","data":"iVBORw0KGgo/,
      gemini: /"inlineData":\{"data":"iVBORw0KGgo[^"]*","mimeType":"image\/png"\}/,
    }[cli as string] ?? /data:image\/png;base64,iVBORw0KGgo/;
    expect(body).toMatch(image);
  });

  it('a missing attachment is an InvalidOptionsError naming it, before anything spawns', async () => {
    const { model, opts, dir } = await setup(cli);
    // No such executable: had anything been spawned first (even the version probe), the error would be another.
    const noCli = { ...opts, executablePath: join(dir, 'no-such-cli') };
    await expect(run(builtInAdapters[cli], 'Look', { ...noCli, images: ['dot.png', 'missing.png'] })).rejects.toSatisfy(
      (error) => error instanceof InvalidOptionsError && /images: cannot read "missing.png"/.test(error.message),
    );
    const files = cli === 'claude' || cli === 'pi' ? { files: ['gone.txt'] } : {};
    if (Object.keys(files).length > 0) await expect(run(builtInAdapters[cli], 'Look', { ...noCli, ...files })).rejects.toThrow(/files: cannot read "gone.txt"/);
    expect(model.requests).toHaveLength(0);
  });
});

it('claude: a file that is not a known image type is refused before anything runs', async () => {
  const { model, opts } = await setup('claude');
  await expect(run(builtInAdapters.claude, 'Look', { ...opts, images: ['notes.txt'] })).rejects.toBeInstanceOf(InvalidOptionsError);
  expect(model.requests).toHaveLength(0);
});
