// The suite's own guarantees against neighbours (other test files, another checkout tested at once).
import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copilotTestHome } from '../../src/testing/copilot-env.js';
import { isProcessAlive, pidsWithMarker, processTable, uniqueMarker } from './processes.js';

describe('test isolation', () => {
  it('every worker has the private temp folder of this run of the suite', () => {
    expect(basename(tmpdir())).toMatch(/^coderline-suite-/);
  });

  it('the copilot HOME belongs to this checkout', () => {
    expect(dirname(copilotTestHome())).toBe(`${process.cwd()}/node_modules/.cache`);
  });

  it('the process table is read for real: it lists this process, and a marker no process carries finds nothing', () => {
    expect(processTable().some((entry) => entry.pid === process.pid)).toBe(true);
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(pidsWithMarker(uniqueMarker('nobody'))).toEqual([]);
  });
});
