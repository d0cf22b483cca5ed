/**
 * A contract file written in JSON is read by JSON.parse (several times faster than the YAML
 * parser, for a large contract's start-up) and gives the same contract as its YAML; a YAML file
 * whose first mapping is a flow mapping (`{` too, but not JSON) is still read as YAML.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { defaultContractFile, loadContract, readHeading } from '../../src/openapi/index.js';

const dir = mkdtempSync(join(tmpdir(), 'plant-store-json-'));
const bundled = parseYaml(readFileSync(defaultContractFile(), 'utf8')) as Record<string, unknown>;

describe('a contract file in JSON', () => {
  it('is read as its YAML is: the same document, operations and heading', () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(bundled, null, 2));
    const contract = loadContract(file);
    expect(contract.document).toEqual(loadContract().document);
    expect(contract.operations.map((o) => o.operationId)).toEqual(loadContract().operations.map((o) => o.operationId));
    expect(readHeading(file).title).toBe(loadContract().title);
  });

  it('a YAML flow mapping that is not JSON is still read as YAML', () => {
    const file = join(dir, 'flow.yaml');
    writeFileSync(file, `{openapi: 3.1.0, info: {title: Flow, version: '1'}, paths: {}}\n`);
    expect(readHeading(file)).toMatchObject({ title: 'Flow', version: '1' });
    expect(loadContract(file).operations).toEqual([]);
  });
});
