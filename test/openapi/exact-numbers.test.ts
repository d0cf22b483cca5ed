/**
 * Integers beyond 2^53 in a contract file stay exact (src/openapi/exact-numbers.ts): YAML reads
 * them as doubles, so the reader takes them as bigints and settles each where it belongs - the
 * double for a keyword ajv compares with (`maximum`), the projection for `enum`/`const`, a
 * LosslessNumber for examples and defaults - in a 3.1 file, through the 3.0 upgrade and through
 * the bundling of several files. Query parameters are read exactly too.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isLosslessNumber, loadContract, openContract, parseJson, stringifyJson, type Contract } from '../../src/openapi/index.js';

const BIG = '9007199254740993';
const dir = mkdtempSync(join(tmpdir(), 'exact-numbers-'));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const OPERATION = `
paths:
  /ledgers:
    get:
      operationId: ledgers
      parameters:
        - { name: after, in: query, schema: { type: integer, format: int64 } }
      responses:
        '200':
          description: the ledger
          content:
            application/json:
              schema:
                type: object
                properties:
                  entries:
                    type: array
                    items:
                      allOf:
                        - type: object
                          properties:
                            amount: { type: integer, format: int64, maximum: 9223372036854775807, minimum: -9223372036854775808 }
                            kind: { type: integer, enum: [${BIG}, 1] }
                            fallback: { type: integer, default: ${BIG} }
              example:
                entries: [{ amount: ${BIG}, kind: ${BIG} }, { amount: -${BIG}, kind: 1 }]
`;

function ledger(contract: Contract): { example: string; validate: (text: string) => boolean } {
  const response = contract.operationById('ledgers')?.response(200);
  const validate = response?.validateBody;
  if (validate === undefined) throw new Error('the fixture lost its JSON answer');
  return { example: stringifyJson(response?.example ?? null), validate: (text) => validate(parseJson(text)).valid };
}

describe('integers beyond 2^53 in a contract file', () => {
  it('an OpenAPI 3.1 file: examples exact, bounds and enums still checked', () => {
    const contract = loadContract(file('ledger-3.1.yaml', `openapi: 3.1.0\ninfo: { title: Ledger, version: '1' }${OPERATION}`));
    const { example, validate } = ledger(contract);
    expect(example).toBe(`{"entries":[{"amount":${BIG},"kind":${BIG}},{"amount":-${BIG},"kind":1}]}`);
    expect(validate(example)).toBe(true);
    expect(validate('{"entries":[{"amount":9223372036854775807,"kind":1}]}')).toBe(true);
    expect(validate('{"entries":[{"amount":1,"kind":2}]}')).toBe(false);
    const items = contract.resolve(contract.operationById('ledgers')?.response(200)?.schema ?? {});
    const fallback = (((items.properties as Record<string, { items: { allOf: { properties: Record<string, Record<string, unknown>> }[] } }>).entries?.items.allOf[0]?.properties.fallback) ?? {}).default;
    expect(isLosslessNumber(fallback) ? fallback.value : fallback).toBe(BIG);
  });

  it('an OpenAPI 3.0 file, read as 3.1: its examples exact too', async () => {
    const contract = await openContract(file('ledger-3.0.yaml', `openapi: 3.0.3\ninfo: { title: Ledger, version: '1' }${OPERATION}`));
    expect(ledger(contract).example).toBe(`{"entries":[{"amount":${BIG},"kind":${BIG}},{"amount":-${BIG},"kind":1}]}`);
  });

  it('a contract over several files: the main file\'s examples exact', async () => {
    file('parts.yaml', 'Entry: { type: object, properties: { amount: { type: integer, format: int64 } } }\n');
    const split = OPERATION.replace(/allOf:[\s\S]*?fallback: \{ type: integer, default: \d+ \}/, "$ref: 'parts.yaml#/Entry'");
    const contract = await openContract(file('ledger-split.yaml', `openapi: 3.1.0\ninfo: { title: Ledger, version: '1' }${split}`));
    expect(ledger(contract).example).toBe(`{"entries":[{"amount":${BIG},"kind":${BIG}},{"amount":-${BIG},"kind":1}]}`);
  });

  it('a query parameter beyond 2^53 is read exactly', () => {
    const contract = loadContract(join(dir, 'ledger-3.1.yaml'));
    const parsed = contract.operationById('ledgers')?.parseParameters({ path: {}, query: `after=${BIG}`, headers: {} });
    const after = parsed !== undefined && 'query' in parsed ? parsed.query.after : undefined;
    expect(isLosslessNumber(after) ? after.value : after).toBe(BIG);
  });
});
