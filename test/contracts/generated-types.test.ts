import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { defaultContractFile } from '../../src/openapi/index.js';
import type { CreatePlantResult, CreatePlantStatus, ErrorBody, NewPlant, Plant } from '../../contracts/client.js';
import { generatedTypesFile, generateTypes } from '../../contracts/generate-types.js';

const scratch = mkdtempSync(join(tmpdir(), 'plant-store-types-'));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('the generated types', () => {
  it('are what openapi-typescript generates from openapi.yaml now (else: npm run generate:types)', async () => {
    expect(readFileSync(generatedTypesFile(), 'utf8')).toBe(await generateTypes());
  });

  it("of the full-store example, used by the client's tests, are what it generates now", async () => {
    const example = fileURLToPath(new URL('../../examples/contracts/plant-store-full.yaml', import.meta.url));
    // Regenerate with: npm run generate:types -- --contract examples/contracts/plant-store-full.yaml --out test/contracts/fixtures/plant-store-full-types.ts
    expect(readFileSync(fileURLToPath(new URL('fixtures/plant-store-full-types.ts', import.meta.url)), 'utf8')).toBe(await generateTypes(example));
  });

  it('would be stale after a change to openapi.yaml: the check above can fail', async () => {
    const document = parse(readFileSync(defaultContractFile(), 'utf8')) as { components: { schemas: { Plant: { properties: Record<string, unknown> } } } };
    document.components.schemas.Plant.properties.colour = { type: 'string' };
    const changed = join(scratch, 'openapi.yaml');
    writeFileSync(changed, stringify(document));
    const regenerated = await generateTypes(changed);
    expect(regenerated).not.toBe(readFileSync(generatedTypesFile(), 'utf8'));
    expect(regenerated).toContain('colour?: string;');
  });

  it('carry int64 as bigint, int32 as number, and one result branch per declared status', () => {
    expectTypeOf<NewPlant['id']>().toEqualTypeOf<bigint>();
    expectTypeOf<NewPlant['name']>().toEqualTypeOf<string>();
    expectTypeOf<Plant['tag']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ErrorBody['error']>().toEqualTypeOf<number>();
    expectTypeOf<CreatePlantStatus>().toEqualTypeOf<200 | 400 | 401>();
    expectTypeOf<Extract<CreatePlantResult, { status: 200 }>['body']>().toEqualTypeOf<Plant>();
    expectTypeOf<Extract<CreatePlantResult, { status: 401 }>['body']>().toEqualTypeOf<ErrorBody>();
  });
});
