// `files` through each real CLI: a text file's content and a PDF's bytes reach the fake model's
// request where the CLI takes them; where it cannot, FeatureNotSupportedError before anything runs.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtInAdapters } from '../../src/registry.js';
import { FeatureNotSupportedError, InvalidOptionsError, run, type OneShotOpts } from '../../src/index.js';
import { startFakeModel, fakeApiOf } from '../../src/testing/index.js';
import type { ProviderName } from '../../src/events.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';
import { notesText, pdfText } from './fixtures.js';

async function setup(cli: ProviderName) {
  const model = await startFakeModel({ api: fakeApiOf[cli], script: [{ text: 'Read it.' }] });
  const dir = await mkdtemp(join(tmpdir(), `coderline-files-${cli}-`));
  cleanupAfterTest(() => model.close(), () => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'notes.txt'), notesText);
  await writeFile(join(dir, 'spec.pdf'), pdfText);
  await writeFile(join(dir, 'blob.bin'), Buffer.from([0x89, 0x00, 0x01, 0x02]));
  const opts: OneShotOpts = { ...withPinnedRuntime(cli, await model.env(cli)), workingDirectory: dir };
  return { model, opts };
}

const pdfBase64 = Buffer.from(pdfText).toString('base64');

describe('files with claude (real binary)', () => {
  it('a text file and a PDF reach the request as document blocks before the prompt', async () => {
    const { model, opts } = await setup('claude');
    const result = await run(builtInAdapters.claude, 'What do they say?', { ...opts, files: ['notes.txt', 'spec.pdf'] });
    expect(result).toMatchObject({ status: 'success', text: 'Read it.' });
    const body = model.requests[0]?.body as { messages: Array<{ role: string; content: unknown }> };
    const content = JSON.stringify(body.messages.find((message) => message.role === 'user')?.content);
    expect(content).toContain(JSON.stringify({ type: 'document', source: { type: 'text', media_type: 'text/plain', data: notesText }, title: 'notes.txt' }));
    expect(content).toContain(JSON.stringify({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdfBase64 }, title: 'spec.pdf' }));
    expect(content.indexOf('"type":"document"')).toBeLessThan(content.indexOf('What do they say?'));
  });

  it('a binary file that is not a PDF is refused by name before anything runs', async () => {
    const { model, opts } = await setup('claude');
    await expect(run(builtInAdapters.claude, 'Look', { ...opts, files: ['blob.bin'] })).rejects.toSatisfy(
      (error) => error instanceof InvalidOptionsError && /files: "blob.bin" is binary/.test(error.message),
    );
    expect(model.requests).toHaveLength(0);
  });
});

describe('files with pi (real binary)', () => {
  it("a text file's content reaches the request, inlined after the prompt", async () => {
    const { model, opts } = await setup('pi');
    const result = await run(builtInAdapters.pi, 'What does it say?', { ...opts, files: ['notes.txt'] });
    expect(result).toMatchObject({ status: 'success', text: 'Read it.' });
    const user = JSON.stringify((model.requests[0]?.body as { messages: Array<{ role: string }> }).messages.filter((message) => message.role === 'user'));
    expect(user).toContain('What does it say?');
    expect(user).toContain(JSON.stringify(notesText).slice(1, -1));
  });

  it('a PDF is refused: pi would inline its raw bytes', async () => {
    const { model, opts } = await setup('pi');
    await expect(run(builtInAdapters.pi, 'Look', { ...opts, files: ['spec.pdf'] })).rejects.toMatchObject({ code: 'feature_not_supported', option: 'files' });
    expect(model.requests).toHaveLength(0);
  });
});

describe.each(['codex', 'copilot'] as const)('files with %s', (cli) => {
  it('are refused before anything runs (the CLI has no file attachment in its prompt mode)', async () => {
    const { model, opts } = await setup(cli);
    await expect(run(builtInAdapters[cli], 'Look', { ...opts, files: ['notes.txt'] })).rejects.toBeInstanceOf(FeatureNotSupportedError);
    expect(model.requests).toHaveLength(0);
  });
});
