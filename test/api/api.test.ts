/**
 * The programmatic API as a project uses it (`import … from 'plant-store-kit'`, here the source of
 * that entry point): servers on a free port with a token and an idempotent close(), options as the
 * command line's, a conformance run, the contract's validators - and docs/api.md naming every
 * export and nothing else. test/package/ runs the same API from the packed and installed kit.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as api from '../../api/index.js';
import { assertRequests, contractFile, createPlant, findRequests, formatReport, loadContract, parseJson, RequestAssertionError, runConformance, startMock, startReference } from '../../api/index.js';
import { firstColumn, missing } from '../docs/markdown.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function post(url: string, token: string | undefined, body = '{"name":"Fern","id":7,"tag":"shade"}'): Promise<{ status: number; body: string }> {
  const response = await fetch(`${url}/plants`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) }, body });
  return { status: response.status, body: await response.text() };
}

describe('startReference', () => {
  it('listens on a free port of 127.0.0.1 with a generated token, and accepts that token only', async () => {
    const server = await startReference();
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.url).not.toMatch(/:0$/);
      expect(server.token).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(await post(server.url, server.token)).toEqual({ status: 200, body: '{"name":"Fern","tag":"shade","id":7}' });
      expect((await post(server.url, `${server.token}x`)).status).toBe(401);
    } finally {
      await server.close();
    }
  });

  it('two servers get two different tokens', async () => {
    const [a, b] = await Promise.all([startReference(), startReference()]);
    await Promise.all([a.close(), b.close()]);
    expect(a.token).not.toBe(b.token);
  });

  it('takes the tokens and limits the command line takes: the first token is handed back, every one is accepted', async () => {
    const server = await startReference({ tokens: ['first', 'second'], maxBodyBytes: 64, maxDepth: 2, maxEntries: 1 });
    try {
      expect(server.token).toBe('first');
      expect((await post(server.url, 'second')).status).toBe(200);
      expect((await post(server.url, 'first', JSON.stringify({ name: 'x'.repeat(100), id: 1 }))).status).toBe(400);
      expect((await post(server.url, 'first', '{"name":"a","id":1,"extra":[[[1]]]}')).status).toBe(400);
    } finally {
      await server.close();
    }
  });

  it('refuses a token the request rules would never accept, rather than start a server nobody can use', async () => {
    await expect(startReference({ tokens: ['not a token'] })).rejects.toThrow(TypeError);
    await expect(startMock({ token: 'bad token' })).rejects.toThrow(TypeError);
  });

  it('close() stops it; a second close(), and two at once, resolve too', async () => {
    const server = await startReference();
    await Promise.all([server.close(), server.close()]);
    await server.close();
    await expect(post(server.url, server.token)).rejects.toThrow();
  });

  it('is quiet unless given a log, which is told one line per request without the token', async () => {
    const lines: string[] = [];
    const server = await startReference({ log: (line) => lines.push(line) });
    await post(server.url, server.token);
    await post(server.url, undefined);
    await server.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).toMatch(/POST \/plants 200[\s\S]*POST \/plants 401/);
    expect(lines.join('\n')).not.toContain(server.token);
  });

  it('a port in use rejects with EADDRINUSE', async () => {
    const server = await startReference();
    try {
      await expect(startReference({ port: Number(new URL(server.url).port) })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await server.close();
    }
  });
});

describe('startMock', () => {
  it('answers a posted plant with its generated token (and any other well-formed one), and closes', async () => {
    const mock = await startMock({ delayMs: 150 });
    try {
      expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const started = performance.now();
      const result = await createPlant(mock.url, mock.token, { name: 'Monstera', id: 1n });
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      expect(result.status).toBe(200);
      expect((await post(mock.url, 'another-token')).status).toBe(200);
      expect((await post(mock.url, undefined)).status).toBe(401);
    } finally {
      await mock.close();
    }
    await mock.close();
    await expect(post(mock.url, mock.token)).rejects.toThrow();
  });

  it('hands back the token it is given', async () => {
    const mock = await startMock({ token: 'my-token', dynamic: true, seed: 'api' });
    await mock.close();
    expect(mock.token).toBe('my-token');
  });
});

describe('the request journal, through the API', () => {
  it('startMock keeps one: requests(), clearRequests(), and the assertion of the documented snippet', async () => {
    const mock = await startMock();
    try {
      await post(mock.url, mock.token, '{"name":"Fern","id":7}');
      await post(mock.url, undefined, '{"name":"Fern","id":8}');
      expect(mock.requests().map((entry) => [entry.request.method, entry.request.path, entry.verdict.outcome, entry.answer.status])).toEqual([
        ['POST', '/plants', 'accepted', 200],
        ['POST', '/plants', 'refused', 401],
      ]);
      // "A POST /plants with name Fern was sent once" - and accepted once.
      assertRequests(mock, { method: 'POST', path: '/plants', body: { name: 'Fern' } });
      expect(findRequests(mock, { outcome: 'refused', status: 401 })).toHaveLength(1);
      expect(() => assertRequests(mock, { body: { name: 'Monstera' } })).toThrow(RequestAssertionError);
      expect(JSON.stringify(mock.requests())).not.toContain(mock.token);
      const overHttp = await fetch(`${mock.url}/__plant-store/requests`);
      expect(((await overHttp.json()) as { held: number }).held).toBe(2);
      mock.clearRequests();
      expect(mock.requests()).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it('startReference keeps one with journal: true, of the size asked; without, none and no requests()', async () => {
    const [journaled, plain] = await Promise.all([startReference({ journal: true, journalSize: 1 }), startReference()]);
    try {
      await post(journaled.url, journaled.token, '{"name":"Fern","id":1}');
      await post(journaled.url, journaled.token, '{"name":"Ivy","id":2}');
      expect(journaled.requests().map((entry) => entry.request.body)).toEqual([{ bytes: 21, text: '{"name":"Ivy","id":2}' }]);
      expect('requests' in plain).toBe(false);
      expect((await fetch(`${plain.url}/__plant-store/requests`)).status).toBe(404);
    } finally {
      await Promise.all([journaled.close(), plain.close()]);
    }
  });

  it('admin: false serves only the contract; journal: false keeps none; a size outside 1..10000 is refused', async () => {
    const mock = await startMock({ admin: false, journal: false });
    try {
      expect('requests' in mock).toBe(false);
      const response = await fetch(`${mock.url}/__plant-store/requests`);
      expect(((await response.json()) as { message: string }).message).toMatch(/^path: no operation at \/__plant-store\/requests/);
    } finally {
      await mock.close();
    }
    await expect(startMock({ journalSize: 0 })).rejects.toThrow(TypeError);
    await expect(startReference({ journal: true, journalSize: 10_001 })).rejects.toThrow('journalSize: 10001 is not a whole number from 1 to 10000');
  });
});

describe('runConformance and the contract, through the API', () => {
  it('the reference passes a run (the documented snippet)', async () => {
    const server = await startReference();
    const report = await runConformance({ baseUrl: server.url, token: server.token, runs: 50, seed: 12 });
    await server.close();
    expect(report.passed, formatReport(report)).toBe(true);
  });

  it("contractFile is the kit's openapi.yaml, and its validators judge parsed JSON exactly", () => {
    expect(contractFile).toBe(join(ROOT, 'openapi.yaml'));
    const validatePlant = loadContract().validatorForComponent('NewPlant');
    expect(validatePlant(parseJson('{"name":"Fern","id":9223372036854775807}')).valid).toBe(true);
    const outside = validatePlant(parseJson('{"name":"Fern","id":9223372036854775808}'));
    expect(outside.valid).toBe(false);
    expect(outside.issues.map((issue) => issue.field)).toEqual(['id']);
  });
});

/** Every name the entry point exports, types included, read from its source. */
function entryPointExports(): string[] {
  const file = join(ROOT, 'api', 'index.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) names.push(...statement.exportClause.elements.map((element) => element.name.text));
    if (ts.isVariableStatement(statement) && statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) {
      names.push(...statement.declarationList.declarations.flatMap((declaration) => (ts.isIdentifier(declaration.name) ? [declaration.name.text] : [])));
    }
  }
  return names;
}

/** The names in code in the first column of docs/api.md's tables headed `export` (`f(options?)` is `f`). */
function documentedExports(markdown: string): Set<string> {
  return new Set(firstColumn(markdown, 'export').flatMap((cell) => [...cell.matchAll(/`([A-Za-z_$][\w$]*)(?:\([^`]*\))?`/g)].map(([, name]) => name as string)));
}

describe('docs/api.md', () => {
  const page = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');

  it('has a row for every export of the entry point, and none for a name it does not export', () => {
    const exported = entryPointExports();
    expect(exported).toEqual(expect.arrayContaining(Object.keys(api)));
    const documented = documentedExports(page);
    expect(missing(exported, documented), 'exports missing from docs/api.md').toEqual([]);
    expect(missing(documented, new Set(exported)), 'names on docs/api.md the entry point does not export').toEqual([]);
  });

  it('the reading can fail: a row taken away is missed', () => {
    const without = page.replace(/^\| `formatReport\(report\)` \|.*\n/m, '');
    expect(without).not.toBe(page);
    expect(missing(entryPointExports(), documentedExports(without))).toEqual(['formatReport']);
  });
});
