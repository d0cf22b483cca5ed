/** The record's requests as curl commands: the same bytes through the shell, the token read from $TOKEN. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startReference, TEST_TOKEN } from '../../support/servers.js';
import { reportedOutcome, reportedRequest, shellQuote, toCurl } from '../../../fuzz/run/reported.js';
import type { RequestCase } from '../../../oracle/types.js';

const run = promisify(execFile);
const base = new URL('http://127.0.0.1:3000');

function plantRequest(body: Uint8Array | string, authorization = `Bearer ${TEST_TOKEN}`): RequestCase {
  return { method: 'POST', path: '/plants', headers: { 'content-type': 'application/json', authorization }, body: typeof body === 'string' ? Buffer.from(body) : body, kind: 'valid', variant: '', content: 'valid', credentials: 'valid', setup: [] };
}

/** What the shell passes to curl as the body: the printf part run by sh, or the quoted argument echoed back. */
async function bytesFromShell(command: string): Promise<Buffer> {
  const printf = /^(printf '.*') \| curl /s.exec(command)?.[1];
  const script = printf ?? `printf '%s' ${/--data-binary ('.*')$/s.exec(command)?.[1] ?? "''"}`;
  const { stdout } = await run('sh', ['-c', script], { encoding: 'buffer' });
  return stdout;
}

describe('toCurl', () => {
  it.each([
    ['plain text', '{"name":"Monstera","id":1}'],
    ['quotes, a dollar sign and astral characters', `{"name":"it's $HOME 🌱 \`x\`","id":1}`],
    ['control characters and a percent sign', '{"name":"a\u0001\t\n%s\\\\","id":1}'],
    ['a NUL byte', '{"name":"a\u0000b","id":1}'],
  ])('sends exactly the bytes of a body with %s', async (_what, body) => {
    const command = toCurl(base, plantRequest(body), TEST_TOKEN);
    expect(Buffer.compare(await bytesFromShell(command), Buffer.from(body))).toBe(0);
  });

  it('sends exactly the bytes of a body that is not UTF-8', async () => {
    const body = Buffer.from([0x7b, 0xff, 0xc0, 0x22, 0x27, 0x7d]);
    const command = toCurl(base, plantRequest(body), TEST_TOKEN);
    expect(command).toMatch(/^printf '/);
    expect(Buffer.compare(await bytesFromShell(command), body)).toBe(0);
  });

  it('never shows the token: the command reads it from $TOKEN', () => {
    const command = toCurl(base, plantRequest('{}', `bearer ${TEST_TOKEN}x`), TEST_TOKEN);
    expect(command).toContain('-H "authorization: bearer ${TOKEN}x"');
    expect(command).not.toContain(TEST_TOKEN);
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });

  describe('with curl, against the reference implementation', () => {
    const servers: { close(): Promise<void> }[] = [];
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.close()));
    });

    it('reproduces the request: the same answer as the engine got', async () => {
      const server = await startReference();
      servers.push(server);
      // A newline between tokens sends it through printf; the escaped NUL stays an escape.
      const body = '{\n"name":"𝕄onstera\\u0000",\n"id":9007199254740993e0}';
      const command = toCurl(new URL(server.url), plantRequest(body), TEST_TOKEN);
      const { stdout } = await run('sh', ['-c', command], { env: { ...process.env, TOKEN: TEST_TOKEN } }).catch((error: unknown) => {
        throw new Error(`curl is needed to check the commands the reports print: ${String(error)}`);
      });
      expect(stdout).toMatch(/^HTTP\/1\.1 200/);
      expect(stdout).toContain('{"name":"𝕄onstera\\u0000","id":9007199254740993}');
    });
  });
});

describe('reportedRequest and reportedOutcome', () => {
  it('show the token as <token>, a body that is not UTF-8 in base64, and a long answer cut', () => {
    const request = reportedRequest(base, plantRequest(Uint8Array.from([0xff, 0x00])), TEST_TOKEN);
    expect(request).toMatchObject({ url: 'http://127.0.0.1:3000/plants', bodyEncoding: 'base64', body: '/wA=', bodyBytes: 2 });
    expect(request.headers.authorization).toBe('Bearer <token>');
    const outcome = reportedOutcome({ kind: 'response', status: 200, headers: {}, body: Buffer.from('x'.repeat(5000)), durationMs: 1 });
    expect(outcome).toMatchObject({ kind: 'response', bodyBytes: 5000 });
    expect(outcome.kind === 'response' ? outcome.body.length : 0).toBe(4097);
  });
});
