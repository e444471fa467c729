// The caller's schemas, of every library and version a user may bring, read only through Standard
// Schema: each one validates a structured output (through the fake CLI) and a tool input (through the
// tools bridge, as a CLI calls it), types what it yields, and gives the CLI a JSON Schema — its own,
// or the one passed beside it, or a clear InvalidOptionsError before anything runs.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type } from 'arktype';
import * as v from 'valibot';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { z as z3 } from 'zod/v3';
import { z as z40 } from 'zod40';
import { z as z41 } from 'zod41';
import { startToolBridge } from '../../src/core/tools/tool-bridge.js';
import { InvalidOptionsError, OutputValidationError, run, tool, type RunResult, type StandardSchemaV1 } from '../../src/index.js';
import { done, fakeAdapter, script } from '../support/fake-adapter.js';

type Answer = { verdict: 'ok' | 'bad'; score: number };
type Ticket = { id: string };

/** What the CLI must be given, however the library spells it. */
const answerJsonSchema = {
  type: 'object',
  properties: { verdict: { type: 'string', enum: ['ok', 'bad'] }, score: { type: 'number' } },
  required: ['verdict', 'score'],
  additionalProperties: false,
};
const ticketJsonSchema = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false };

interface Library {
  name: string;
  answer: StandardSchemaV1<unknown, Answer>;
  ticket: StandardSchemaV1<unknown, Ticket>;
  /** The JSON Schemas to pass beside, when the library provides none of its own. */
  beside?: { answer: Record<string, unknown>; ticket: Record<string, unknown> };
}

/**
 * The schema as the table's type, unchecked: checking these libraries' types against it took the type
 * checker minutes (RunResult.output's type from a Standard Schema is checked in types.test.ts).
 */
const untyped = <T>(schema: unknown) => schema as StandardSchemaV1<unknown, T>;
const arkAnswer = type({ verdict: type.enumerated('ok', 'bad'), score: 'number' });
const arkTicket = type({ id: 'string' });

const libraries: Library[] = [
  { name: "zod latest (the root's)", answer: z.object({ verdict: z.enum(['ok', 'bad']), score: z.number() }), ticket: z.object({ id: z.string() }) },
  {
    name: 'zod 4.0',
    answer: untyped<Answer>(z40.object({ verdict: z40.enum(['ok', 'bad']), score: z40.number() })),
    ticket: untyped<Ticket>(z40.object({ id: z40.string() })),
    // zod 4.0 and 4.1 predate Standard JSON Schema: the caller converts with their own zod.
    beside: { answer: z40.toJSONSchema(z40.object({ verdict: z40.enum(['ok', 'bad']), score: z40.number() })), ticket: z40.toJSONSchema(z40.object({ id: z40.string() })) },
  },
  {
    name: 'zod 4.1',
    answer: untyped<Answer>(z41.object({ verdict: z41.enum(['ok', 'bad']), score: z41.number() })),
    ticket: untyped<Ticket>(z41.object({ id: z41.string() })),
    beside: { answer: z41.toJSONSchema(z41.object({ verdict: z41.enum(['ok', 'bad']), score: z41.number() })), ticket: z41.toJSONSchema(z41.object({ id: z41.string() })) },
  },
  {
    name: 'zod/mini',
    answer: untyped<Answer>(zm.object({ verdict: zm.enum(['ok', 'bad']), score: zm.number() })),
    ticket: untyped<Ticket>(zm.object({ id: zm.string() })),
    beside: { answer: zm.toJSONSchema(zm.object({ verdict: zm.enum(['ok', 'bad']), score: zm.number() })), ticket: zm.toJSONSchema(zm.object({ id: zm.string() })) },
  },
  {
    name: 'zod/v3 (the zod 3 API)',
    answer: untyped<Answer>(z3.object({ verdict: z3.enum(['ok', 'bad']), score: z3.number() })),
    ticket: untyped<Ticket>(z3.object({ id: z3.string() })),
    beside: { answer: answerJsonSchema, ticket: ticketJsonSchema },
  },
  {
    name: 'valibot',
    answer: untyped<Answer>(v.object({ verdict: v.picklist(['ok', 'bad']), score: v.number() })),
    ticket: untyped<Ticket>(v.object({ id: v.string() })),
    beside: { answer: answerJsonSchema, ticket: ticketJsonSchema },
  },
  { name: 'arktype', answer: untyped<Answer>(arkAnswer), ticket: untyped<Ticket>(arkTicket) },
];

const fake = fakeAdapter();
const tempDirs: string[] = [];
afterAll(() => tempDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The JSON Schema the fake CLI read from its `--schema` file, from the run's events. */
const schemaTheCliSaw = (result: RunResult<unknown, string>) =>
  (result.events?.find((event) => event.type === 'progress' && event.subtype === 'schema')?.raw as { schema?: unknown } | undefined)?.schema;

async function callThroughBridge(made: ReturnType<typeof tool>, args: unknown) {
  const bridge = await startToolBridge({ tools: [made], runSignal: new AbortController().signal });
  const client = new Client({ name: 'test-cli', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(bridge.url), { requestInit: { headers: bridge.headers } }));
    const { tools } = await client.listTools();
    const result = await client.callTool({ name: made.name, arguments: args as Record<string, unknown> });
    return { listed: tools[0]?.inputSchema, result };
  } finally {
    await client.close();
    await bridge.close();
  }
}

describe.each(libraries)('$name', ({ answer, ticket, beside }) => {
  const answerOptions = beside ? { outputSchema: answer, outputJsonSchema: beside.answer } : { outputSchema: answer };

  it('validates a structured output through the CLI, which is given the JSON Schema', async () => {
    const result = await run(fake, 'x', { ...script([{ echoSchema: true }, done('{"verdict":"ok","score":3}')]), ...answerOptions, collectEvents: true });
    expect(result.status).toBe('success');
    expect(result.output).toEqual({ verdict: 'ok', score: 3 });
    // Libraries order keys and enum members as they like.
    expect(schemaTheCliSaw(result)).toMatchObject({
      type: 'object',
      properties: { verdict: { enum: expect.arrayContaining(['ok', 'bad']) }, score: { type: 'number' } },
      required: expect.arrayContaining(['verdict', 'score']),
    });

    const wrong = await run(fake, 'x', { ...script([done('{"verdict":"maybe","score":3}')]), ...answerOptions });
    expect(wrong.status).toBe('error');
    expect(wrong.error).toBeInstanceOf(OutputValidationError);
    expect((wrong.error as OutputValidationError).issues.join('\n')).toMatch(/^verdict: /m);
  });

  it('validates a tool input through the bridge, which lists its JSON Schema', async () => {
    const received: Ticket[] = [];
    const made = tool({
      name: 'lookup',
      description: 'Looks a ticket up',
      input: ticket,
      ...(beside ? { inputJsonSchema: beside.ticket } : {}),
      handler: (input) => {
        received.push(input);
        return `ticket ${input.id}`;
      },
    });
    const good = await callThroughBridge(made, { id: '42' });
    expect(good.listed).toMatchObject({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] });
    expect(good.result).toMatchObject({ content: [{ type: 'text', text: 'ticket 42' }] });
    const bad = await callThroughBridge(made, { id: 42 });
    expect(bad.result.isError).toBe(true);
    expect(JSON.stringify(bad.result.content)).toMatch(/Invalid input for lookup: id: /);
    expect(received).toEqual([{ id: '42' }]);
  });

  if (beside) {
    it('without a JSON Schema beside it, is a clear InvalidOptionsError before anything runs', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'coderline-schema-lib-'));
      tempDirs.push(dir);
      const marker = join(dir, 'spawned');
      const attempt = run(fake, 'x', { ...script([done('{}')], { FAKE_CLI_MARKER: marker }), outputSchema: answer });
      await expect(attempt).rejects.toBeInstanceOf(InvalidOptionsError);
      await expect(attempt).rejects.toThrow(/outputSchema: this .* schema does not provide its JSON Schema .* pass one as outputJsonSchema/);
      expect(existsSync(marker)).toBe(false);
      expect(() => tool({ name: 'lookup', description: '', input: ticket, handler: () => '' })).toThrow(/pass one as inputJsonSchema/);
    });
  }
});
