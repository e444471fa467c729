// Each test file gets a version cache of its own (CODERLINE_CACHE_DIR): the user's is never written,
// and no test file finds versions another one probed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'coderline-test-cache-'));
process.env.CODERLINE_CACHE_DIR = dir;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
