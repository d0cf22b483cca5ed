/**
 * Credentials per security scheme (issue 29): a contract with an API key in a header and HTTP
 * basic (fixtures/shed-keys.yaml: an operation with the key, one with either, one with both). The
 * kit's reference of it, given those credentials, passes; a store that takes the key in the query
 * too, and one that takes any password, are each caught by requires-auth; without the basic
 * credentials the operations that need them are not tested, and said so.
 */
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/openapi/index.js';
import type { AppRequest } from '../../src/reference/index.js';
import { runConformance, formatReport, type Report } from '../../fuzz/index.js';
import { startFaulty, startReference, type Fault } from '../support/servers.js';

const contract = loadContract(resolve(import.meta.dirname, 'fixtures/shed-keys.yaml'));
const KEY = 'shed-key-4711';
const PAIR = 'ann:pw-1';
const credentials = { shedKey: KEY, shedBasic: PAIR };
const seed = 20240611;
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

async function run(url: string, given: Readonly<Record<string, string>> = credentials): Promise<Report> {
  return runConformance({ baseUrl: url, contract, credentials: given, seed, runs: 150, capacity: 100, shrinkTimeMs: 2000, timeoutMs: 2500 });
}

async function faulty(fault: Fault): Promise<string> {
  const server = await startFaulty(fault, { contract, credentials });
  closers.push(() => server.close());
  return server.url;
}

/** The request with one header set. */
function withHeader(request: AppRequest, name: string, value: string): AppRequest {
  return { ...request, headers: { ...request.headers, [name]: value } };
}

/** A key accepted in the query as well as in its header: the contract says header. */
const keyInQueryToo: Fault = (request, correct, app) => {
  const query = new URL(request.url, 'http://x').searchParams;
  const key = [...query].find(([name]) => name.toLowerCase() === 'x-shed-key')?.[1];
  return key === undefined || request.headers['x-shed-key'] !== undefined ? correct() : app.request(withHeader(request, 'x-shed-key', key));
};

/** HTTP basic that checks the user only: any password of ann is taken. */
const anyPassword: Fault = (request, correct, app) => {
  const [scheme, token = ''] = String(request.headers.authorization ?? '').split(' ');
  if (scheme?.toLowerCase() !== 'basic') return correct();
  let pair = '';
  try {
    pair = Buffer.from(token, 'base64').toString('utf8');
  } catch {
    return correct();
  }
  return pair.startsWith('ann:') ? app.request(withHeader(request, 'authorization', `Basic ${Buffer.from(PAIR).toString('base64')}`)) : correct();
};

const failed = (report: Report): string[] => report.failures.map((f) => f.check);

describe('credentials per scheme: an API key (header) and HTTP basic', () => {
  it('the reference with --auth for both passes with no failure, exercising both schemes', { timeout: 120_000 }, async () => {
    const server = await startReference({ contract, credentials });
    closers.push(() => server.close());
    const report = await run(server.url);
    expect(failed(report), formatReport(report)).toEqual([]);
    expect([...(report.security?.exercised ?? [])].sort()).toEqual(['shedBasic', 'shedKey']);
    expect(report.security?.notTested).toEqual([]);
    expect(report.kinds['bad-auth']).toBeGreaterThan(0);
  });

  it('without the basic credentials, the operation that needs both is not tested, and said so', { timeout: 120_000 }, async () => {
    const server = await startReference({ contract, credentials });
    closers.push(() => server.close());
    const report = await run(server.url, { shedKey: KEY });
    expect(failed(report), formatReport(report)).toEqual([]);
    expect(report.security?.notTested.map((n) => n.operation)).toEqual(['deleteTool (DELETE /tools/{toolId})']);
    expect(report.security?.notTested[0]?.reason).toContain('shedKey and shedBasic');
    expect(formatReport(report)).toContain('not tested: deleteTool (DELETE /tools/{toolId})');
    expect(JSON.stringify(report)).not.toContain(KEY);
  });

  it('a key accepted in the query too (the contract says header) is caught by requires-auth', { timeout: 120_000 }, async () => {
    const report = await run(await faulty(keyInQueryToo));
    expect(failed(report), formatReport(report)).toContain('requires-auth');
    const finding = report.failures.find((f) => f.check === 'requires-auth');
    expect(finding?.request?.variant).toContain('wrong place');
    expect(JSON.stringify(report)).not.toContain(KEY);
    // The curl commands read the key from PLANT_STORE_AUTH_SHEDKEY; with no --token, neither does the replay.
    expect(finding?.curl).toContain('${PLANT_STORE_AUTH_SHEDKEY}');
    expect(formatReport(report)).toContain('replay with: plant-store conform --base-url');
    expect(formatReport(report)).not.toContain('--token');
  });

  it('HTTP basic that takes any password is caught by requires-auth', { timeout: 120_000 }, async () => {
    const report = await run(await faulty(anyPassword));
    expect(failed(report), formatReport(report)).toContain('requires-auth');
    expect(report.failures.find((f) => f.check === 'requires-auth')?.request?.variant).toContain('wrong password');
  });

  it("the greenhouse example's reference (every scheme, alternatives, AND, open) passes with --auth for each scheme", { timeout: 120_000 }, async () => {
    const greenhouse = loadContract(resolve(import.meta.dirname, '../../examples/contracts/greenhouse-security.yaml'));
    const given = { keyHeader: 'k-head-1', keyQuery: 'k-query-1', keyCookie: 'k-cookie-1', basicAuth: 'ann:pw-1', oauth: 'tok-1', oidc: 'tok-2' };
    const server = await startReference({ contract: greenhouse, credentials: given });
    closers.push(() => server.close());
    const report = await runConformance({ baseUrl: server.url, contract: greenhouse, credentials: given, seed, runs: 150, capacity: 50, shrinkTimeMs: 2000 });
    expect(failed(report), formatReport(report)).toEqual([]);
    expect([...(report.security?.exercised ?? [])].sort()).toEqual(Object.keys(given).sort());
    expect(report.checks['requires-auth'].requests).toBeGreaterThan(0);
  });
});
