// Attachments in live sessions (coder.open()): each send() carries its own images and files, in the
// live protocol's own shape, and the fake model's request shows them. A missing file fails that turn
// alone, before anything is written; open() takes no attachments; a CLI whose live mode takes no files
// refuses them.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtInAdapters } from '../../src/registry.js';
import { createCoder, FeatureNotSupportedError, InvalidOptionsError } from '../../src/index.js';
import type { ProviderName } from '../../src/events.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { fakeForLive, openLive } from '../support/live.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';
import { notesText, pdfText, pngBase64 } from './fixtures.js';

async function setup(cli: ProviderName, answers = 2) {
  const fake = await fakeForLive(cli, Array.from({ length: answers }, (_, index) => ({ text: `Answer ${index}.` })), cli === 'copilot' || cli === 'gemini' ? undefined : 120_000);
  await writeFile(join(fake.workDir, 'dot.png'), Buffer.from(pngBase64, 'base64'));
  await writeFile(join(fake.workDir, 'notes.txt'), notesText);
  await writeFile(join(fake.workDir, 'spec.pdf'), pdfText);
  return { ...fake, opts: withPinnedRuntime(cli, fake.opts) };
}

/** The user's part of a request: what the model was sent besides the system prompt and the tools. */
function userPart(body: unknown): string {
  const { messages, input, contents } = body as { messages?: Array<{ role: string }>; input?: Array<{ role?: string }>; contents?: Array<{ role?: string }> };
  return JSON.stringify((messages ?? input ?? contents ?? []).filter((item) => item.role === 'user'));
}

const imageIn = (cli: ProviderName) =>
  ({
    claude: /"type":"image","source":\{"type":"base64","media_type":"image\/png","data":"iVBORw0KGgo/,
    gemini: /"inlineData":\{"data":"iVBORw0KGgo[^"]*","mimeType":"image\/png"\}/,
  })[cli as string] ?? /data:image\/png;base64,iVBORw0KGgo/;

describe.each(['claude', 'codex', 'copilot', 'pi', 'gemini', 'opencode'] as const)('images in a %s live session (real binary)', (cli) => {
  it('a turn sent with an image carries it; the turn before, sent without, did not', async () => {
    const { model, opts } = await setup(cli);
    const live = await openLive(builtInAdapters[cli], opts);
    expect(await live.send('Hello.').result).toMatchObject({ status: 'success', text: 'Answer 0.' });
    expect(await live.send('What is in the picture?', { images: ['dot.png'] }).result).toMatchObject({ status: 'success', text: 'Answer 1.' });
    expect(model.requests).toHaveLength(2);
    expect(userPart(model.requests[0]?.body)).not.toMatch(imageIn(cli));
    const second = userPart(model.requests[1]?.body);
    expect(second).toContain('What is in the picture?');
    expect(second).toMatch(imageIn(cli));
  });

  it('a missing file fails that turn with InvalidOptionsError naming it, and the session goes on', async () => {
    const { model, opts } = await setup(cli, 1);
    const live = await openLive(builtInAdapters[cli], opts);
    await expect(live.send('Look.', { images: ['missing.png'] }).result).rejects.toSatisfy(
      (error) => error instanceof InvalidOptionsError && /images: cannot read "missing.png"/.test(error.message),
    );
    expect(model.requests).toHaveLength(0);
    expect(await live.send('Still there?').result).toMatchObject({ status: 'success', text: 'Answer 0.' });
  });

  it('open() takes no attachments: they go with send()', async () => {
    const { opts } = await setup(cli, 0);
    const coder = createCoder(builtInAdapters[cli], opts);
    cleanupAfterTest(() => coder.close());
    await expect(coder.open({ images: ['dot.png'] })).rejects.toSatisfy((error) => error instanceof InvalidOptionsError && /pass them to send\(\)/.test(error.message));
  });
});

describe('files in a claude live session (real binary)', () => {
  it("a text file's content and a PDF reach the turn's request", async () => {
    const { model, opts } = await setup('claude', 1);
    const live = await openLive(builtInAdapters.claude, opts);
    expect(await live.send('What do they say?', { files: ['notes.txt', 'spec.pdf'] }).result).toMatchObject({ status: 'success', text: 'Answer 0.' });
    const user = userPart(model.requests[0]?.body);
    expect(user).toContain('What do they say?');
    expect(user).toContain(JSON.stringify(notesText).slice(1, -1));
    expect(user).toContain(Buffer.from(pdfText).toString('base64'));
  });
});

describe.each(['codex', 'copilot', 'pi', 'gemini', 'opencode'] as const)('files in a %s live session', (cli) => {
  it('are refused by send(): its live protocol puts no file content in front of the model', async () => {
    const { opts } = await setup(cli, 0);
    const live = await openLive(builtInAdapters[cli], opts);
    expect(() => live.send('Look.', { files: ['notes.txt'] })).toThrow(FeatureNotSupportedError);
  });
});
