// A plain JSON Schema outputSchema is compiled when the options are parsed: one the SDK cannot check
// is an InvalidOptionsError before the CLI spawns, not a failed run after the tokens were spent.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileJsonSchema } from '../../src/schema/json-schema.js';
import { createCoder, InvalidOptionsError, run } from '../../src/index.js';
import { done, fakeAdapter, script } from '../support/fake-adapter.js';

const fake = fakeAdapter();
const dir = mkdtempSync(join(tmpdir(), 'coderline-json-schema-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a plain JSON Schema outputSchema the SDK cannot check', () => {
  it.each([
    ['if/then', { type: 'object', if: { properties: { a: { const: 1 } } }, then: { required: ['b'] } }, /keyword "if" is not supported/],
    ['an external $ref', { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } }, /#\/properties\/a: \$ref "https:\/\/example.com\/a.json" is not supported/],
    ['a misspelt type', { type: 'object', properties: { name: { type: 'strng' } } }, /#\/properties\/name: type "strng" is not a JSON Schema type/],
    ['a $ref to a definition that is not there', { $ref: '#/$defs/missing' }, /\$ref "#\/\$defs\/missing" is not supported/],
  ])('is an InvalidOptionsError before anything spawns: %s', async (_what, schema, message) => {
    const marker = join(dir, `spawned-${Math.random().toString(36).slice(2)}`);
    const attempt = run(fake, 'x', { ...script([done('{}')], { FAKE_CLI_MARKER: marker }), outputSchema: schema });
    await expect(attempt).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(attempt).rejects.toThrow(message);
    await expect(attempt).rejects.toThrow(/- outputSchema: JSON Schema /);
    expect(existsSync(marker)).toBe(false);
    // A session's run is checked the same way.
    const session = createCoder(fake).start();
    await expect(session.run('x', { ...script([done('{}')], { FAKE_CLI_MARKER: marker }), outputSchema: schema })).rejects.toThrow(message);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('the supported subset', () => {
  const schema = {
    type: 'object',
    $defs: { tag: { type: 'string', pattern: '^[a-z]+$', maxLength: 8 } },
    properties: {
      verdict: { enum: ['ok', 'bad'] },
      score: { type: 'integer', minimum: 0, maximum: 10 },
      tags: { type: 'array', items: { $ref: '#/$defs/tag' }, maxItems: 2 },
      note: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'free text' },
    },
    required: ['verdict', 'score'],
    additionalProperties: false,
  };
  const compiled = compileJsonSchema(schema);
  if ('problems' in compiled) throw new Error(compiled.problems.join('\n'));

  it('passes what matches', () => {
    expect(compiled.validate({ verdict: 'ok', score: 3, tags: ['a', 'bc'], note: null })).toEqual([]);
  });

  it('names every mismatch by its path', () => {
    expect(compiled.validate({ verdict: 'maybe', score: 3.5, tags: ['A', 'b', 'c'], note: 1, extra: true })).toEqual([
      'verdict: must be one of ["ok","bad"]',
      'score: expected integer, got number',
      'tags.0: must match ^[a-z]+$',
      'tags: must have at most this many items: 2',
      'note: matches none of anyOf (note: expected string, got integer | note: expected null, got integer)',
      'extra: not allowed (additionalProperties is false)',
    ]);
    expect(compiled.validate([])).toEqual(['(root): expected object, got array']);
    expect(compiled.validate({ verdict: 'ok' })).toEqual(['score: required']);
  });

  it('a run validates the answer against it', async () => {
    const good = await run(fake, 'x', { ...script([done('{"verdict":"ok","score":3}')]), outputSchema: schema });
    expect(good.output).toEqual({ verdict: 'ok', score: 3 });
    const bad = await run(fake, 'x', { ...script([done('{"verdict":"ok","score":11}')]), outputSchema: schema });
    expect(bad.error?.code).toBe('invalid_output');
  });
});
