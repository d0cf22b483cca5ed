/**
 * The path matcher (src/openapi/paths.ts) on templates whose segments mix text and parameters
 * (OpenAPI 3.1, section 4.8.8): `/reports/{id}.json`, `/range/{from}..{to}`. Each is matched with
 * the parameters' raw text, ranked between a literal segment and a whole parameter, and served end
 * to end by the reference.
 */
import { describe, expect, it } from 'vitest';
import { compileContract } from '../../src/openapi/index.js';
import { createStoreApp } from '../../src/reference/index.js';

const ok = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' }, example: {} } } } };
const idParameter = (name: string, type = 'string') => ({ name, in: 'path', required: true, schema: { type } });

function contractOf(paths: Record<string, unknown>) {
  return compileContract({ openapi: '3.1.0', info: { title: 'Paths', version: '1' }, paths }, '<paths>');
}

describe('a segment that mixes text and parameters', () => {
  const contract = contractOf({
    '/reports/{id}.json': { get: { parameters: [idParameter('id', 'integer')], responses: ok } },
    '/reports/{id}': { get: { parameters: [idParameter('id')], responses: ok } },
    '/reports/latest.json': { get: { responses: ok } },
    '/range/{from}..{to}': { get: { parameters: [idParameter('from', 'integer'), idParameter('to', 'integer')], responses: ok } },
  });

  it.each([
    ['/reports/42.json', '/reports/{id}.json', { id: '42' }],
    ['/reports/42', '/reports/{id}', { id: '42' }],
    ['/reports/latest.json', '/reports/latest.json', {}],
    ['/reports/a.b.json', '/reports/{id}.json', { id: 'a.b' }],
    ['/range/3..9', '/range/{from}..{to}', { from: '3', to: '9' }],
    ['/range/3...9', '/range/{from}..{to}', { from: '3', to: '.9' }],
  ])('%s is under %s', (path, template, values) => {
    expect(contract.matchPath(path)).toEqual({ template, values });
  });

  it('a segment missing its text, or a parameter left empty, is under the whole parameter or nothing', () => {
    expect(contract.matchPath('/reports/.json')).toEqual({ template: '/reports/{id}', values: { id: '.json' } });
    expect(contract.matchPath('/range/..9')).toBeUndefined();
  });

  it('two parameters side by side: one whose schema lists its values takes one of them (Twilio-style {Sid}{mediaTypeExtension})', () => {
    const twinned = contractOf({
      '/calls/{sid}{extension}': { get: { parameters: [idParameter('sid'), { name: 'extension', in: 'path', required: true, schema: { type: 'string', enum: ['.json', '.csv', '.xml.gz'] } }], responses: ok } },
    });
    expect(twinned.matchPath('/calls/CA12.ab.json')).toEqual({ template: '/calls/{sid}{extension}', values: { sid: 'CA12.ab', extension: '.json' } });
    expect(twinned.matchPath('/calls/CA12.xml.gz')).toEqual({ template: '/calls/{sid}{extension}', values: { sid: 'CA12', extension: '.xml.gz' } });
    expect(twinned.matchPath('/calls/CA12.yaml')).toBeUndefined();
  });

  it('the reference answers it and reads its parameters by their schemas', () => {
    const app = createStoreApp(contract, { tokens: ['t'] });
    expect(app.request({ method: 'GET', url: '/range/3..9', headers: {} }).status).toBe(200);
    const refused = app.request({ method: 'GET', url: '/range/three..9', headers: {} });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('from');
  });
});
