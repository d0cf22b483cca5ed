/**
 * The credential table (oracle/credential-table.ts, fuzz/generation/tables/credential-spellings.ts): its laws for any token - every refused
 * variant differs from `Bearer <token>`, every accepted one is valid, and what each is follows
 * RFC 6750's grammar, read here by an oracle written apart from the engine's; a fixed token gives
 * a fixed list; the mock profile gets nothing a mock may accept; each shell expression a report
 * prints gives the bytes that were sent, and the `curl` command of every variant sends the
 * Authorization lines the engine sent; docs/credentials.md has the table as the code writes it.
 *
 * The property tests print their seed and the command that replays them (test/support/seed.ts).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptTokens, bearerRefusal } from '../../src/http/index.js';
import { loadContract } from '../../src/openapi/index.js';
import { createHttpClient } from '../../fuzz/wire/http-client.js';
import { coverageCases } from '../../fuzz/generation/kinds/index.js';
import { credentialsByGrammar, CREDENTIAL_VARIANTS, credentialTableMarkdown } from '../../oracle/credential-table.js';
import { credentialSpellings } from '../../fuzz/generation/tables/credential-spellings.js';
import { reportedRequest, toCurl } from '../../fuzz/run/reported.js';
import { fcParameters } from '../support/seed.js';
import type { Credentials } from '../../oracle/types.js';

const run = promisify(execFile);
const contract = loadContract();

/**
 * What credentials a field carries, straight from the ABNF: RFC 9110, section 11.4 (`credentials
 * = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`, auth-scheme = token, section 5.6.2), OWS
 * around the field value (section 5.5), one field only (section 5.3); RFC 6750, section 2.1
 * (`"Bearer" 1*SP b64token`, the scheme case-insensitive as ABNF strings are, RFC 5234).
 */
function oracle(lines: readonly string[], token: string): Credentials {
  if (lines.length === 0) return 'missing';
  if (lines.length > 1) return 'malformed';
  const tchar = "[-!#$%&'*+.^_`|~0-9A-Za-z]";
  const b64token = '[-A-Za-z0-9._~+/]+=*';
  const field = new RegExp(`^[ \\t]*(${tchar}+)(?: +([^ \\t](?:.*[^ \\t])?))?[ \\t]*$`, 's').exec(lines[0] ?? '');
  if (field === null) return 'malformed';
  const [, scheme = '', rest] = field;
  if (!/^[Bb][Ee][Aa][Rr][Ee][Rr]$/.test(scheme)) return 'other-scheme';
  if (rest === undefined || !new RegExp(`^${b64token}$`).test(rest)) return 'malformed';
  return rest === token ? 'valid' : 'wrong-token';
}

/** Tokens as RFC 6750 writes them (b64token), short and long, padded or not. */
const tokens = fc.stringMatching(/^[-A-Za-z0-9._~+/]{1,40}={0,2}$/);

describe('the credential table', () => {
  it('names each variant once, gives each an RFC reason, and has both sides', () => {
    const names = CREDENTIAL_VARIANTS.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    for (const variant of CREDENTIAL_VARIANTS) expect(variant.reason, variant.name).toMatch(/RFC \d+, section [\d.]+|the contract's scheme/);
    expect(CREDENTIAL_VARIANTS.some((v) => v.side === 'accept')).toBe(true);
    expect(CREDENTIAL_VARIANTS.some((v) => v.side === 'refuse')).toBe(true);
  });

  it("for any token: refused variants differ from Bearer <token>, accepted ones are valid, and the classification is the grammar's", () => {
    fc.assert(
      fc.property(tokens, (token) => {
        for (const variant of CREDENTIAL_VARIANTS) {
          const presented = variant.build('Bearer', token);
          if (presented === undefined) continue;
          const expected = oracle(presented.lines, token);
          expect(credentialsByGrammar(presented, 'Bearer', token), `${variant.name} for ${token}`).toBe(expected);
          if (variant.side === 'accept') expect(expected, variant.name).toBe('valid');
          else expect(presented.lines.length === 1 && presented.lines[0] === `Bearer ${token}`, variant.name).toBe(false);
          // A token in the query is no credential of the contract's scheme, whatever it is.
          if (presented.accessToken !== undefined) expect(expected).toBe('missing');
        }
        for (const auth of credentialSpellings('refuse', 'Bearer', token)) expect(auth.credentials, auth.shown).not.toBe('valid');
      }),
      fcParameters('credential table: classification', 100),
    );
  });

  it('under the mock profile refuses nothing a mock may accept: no field line, and no access_token, is a well-formed bearer token', () => {
    fc.assert(
      fc.property(tokens, (token) => {
        for (const auth of credentialSpellings('refuse', 'Bearer', token, 'mock')) {
          for (const line of [auth.header, ...(auth.moreHeaders ?? [])]) if (line !== undefined) expect(['valid', 'wrong-token'], `${auth.shown}: ${line}`).not.toContain(oracle([line], token));
          const inQuery = auth.query === undefined ? undefined : new URLSearchParams(auth.query).get('access_token');
          if (inQuery !== undefined && inQuery !== null) expect(/^[-A-Za-z0-9._~+/]+=*$/.test(inQuery), auth.shown).toBe(false);
        }
      }),
      fcParameters('credential table: the mock profile', 100),
    );
  });

  it('gives a fixed list for a fixed token', () => {
    const listed = (token: string): string[] =>
      credentialSpellings('refuse', 'Bearer', token).map((auth) => `${auth.name ?? ''} | ${auth.credentials} | ${[auth.header, ...(auth.moreHeaders ?? [])].map((l) => (l === undefined ? '-' : JSON.stringify(l))).join(' + ')}${auth.query === undefined ? '' : ` | ?${auth.query}`}`);
    expect(listed('test-token')).toEqual([
      'missing | missing | -',
      'empty | malformed | ""',
      'scheme-only | malformed | "Bearer"',
      'token-only | other-scheme | "test-token"',
      'no-space | other-scheme | "Bearertest-token"',
      'colon-after-scheme | malformed | "Bearer: test-token"',
      'longer-scheme | other-scheme | "Bearers test-token"',
      'basic-token | other-scheme | "Basic test-token"',
      'basic-token-as-user | other-scheme | "Basic dGVzdC10b2tlbjo="',
      'basic-token-as-password | other-scheme | "Basic eDp0ZXN0LXRva2Vu"',
      'token-scheme | other-scheme | "Token test-token"',
      'oauth-scheme | other-scheme | "OAuth test-token"',
      'digest-scheme | other-scheme | "Digest test-token"',
      'token-minus-last | wrong-token | "Bearer test-toke"',
      'token-plus-one | wrong-token | "Bearer test-tokenx"',
      'token-prefixed | wrong-token | "Bearer xtest-token"',
      'token-one-case-changed | wrong-token | "Bearer test-tokeN"',
      'token-upper-case | wrong-token | "Bearer TEST-TOKEN"',
      'token-twice | wrong-token | "Bearer test-tokentest-token"',
      'token-padded | wrong-token | "Bearer test-token="',
      'base64-twin | wrong-token | "Bearer test-tokem"',
      'other-base64-alphabet | wrong-token | "Bearer test+token"',
      'token-twice-spaced | malformed | "Bearer test-token test-token"',
      'token-then-word | malformed | "Bearer test-token extra"',
      'list-token-last | malformed | "Bearer x,test-token"',
      'list-token-first | malformed | "Bearer test-token,x"',
      'quoted-token | malformed | "Bearer \\"test-token\\""',
      'tab-separator | malformed | "Bearer\\ttest-token"',
      'no-break-space-separator | malformed | "Bearer\u00a0test-token"',
      'trailing-no-break-space | malformed | "Bearer test-token\u00a0"',
      'fullwidth-scheme | malformed | "\u00ef\u00bc\u00a2\u00ef\u00bd\u0085\u00ef\u00bd\u0081\u00ef\u00bd\u0092\u00ef\u00bd\u0085\u00ef\u00bd\u0092 test-token"',
      'look-alike-scheme | malformed | "\u00d0\u0092earer test-token"',
      'two-fields | malformed | "Bearer test-tokenx" + "Bearer test-token"',
      'wrong-token-in-query | missing | - | ?access_token=test-tokenx',
      'token-in-query | missing | - | ?access_token=test-token',
    ]);
    // The grammar decides per token: a `/` or `=` cannot be part of a scheme word, nor `=` inside a b64token.
    const kinds: Record<string, string> = Object.fromEntries(credentialSpellings('refuse', 'Bearer', 'aB/c+9==').map((auth) => [auth.name ?? '', auth.credentials]));
    expect(kinds).toMatchObject({ 'token-only': 'malformed', 'no-space': 'malformed', 'token-plus-one': 'malformed', 'token-twice': 'malformed', 'token-padded': 'wrong-token', 'other-base64-alphabet': 'wrong-token' });
    expect(kinds['base64-twin']).toBeUndefined();
    expect(credentialSpellings('accept', 'Bearer', 'test-token').map((auth) => auth.header)).toEqual(['bearer test-token', 'BEARER test-token', 'bEaReR test-token', ' Bearer test-token', 'Bearer test-token ', 'Bearer  test-token']);
  });
});

describe("the kit's own servers (the credential rule of src/http)", () => {
  it('refuse every refused variant and accept every accepted one, for any token (two fields arrive joined, as the socket layer joins them)', () => {
    fc.assert(
      fc.property(tokens, (token) => {
        const accept = acceptTokens([token]);
        for (const variant of CREDENTIAL_VARIANTS) {
          const presented = variant.build('Bearer', token);
          if (presented === undefined) continue;
          const field = presented.lines.length === 0 ? undefined : presented.lines.join(', ');
          expect(bearerRefusal(field, accept) === undefined, `${variant.name}: ${JSON.stringify(field)}`).toBe(variant.side === 'accept');
        }
      }),
      fcParameters('credential table: the credential rule of src/http', 100),
    );
  });
});

describe('what reports print of a variant', () => {
  const derivedTokens = ['test-token', 'Ab+/9_-x', 'abc.DEF~12==', 'Zz', 'q1w2E3r4T5y6'];

  it.each(derivedTokens)('each shell expression gives, from $TOKEN, the text that was sent (token %s)', async (token) => {
    for (const variant of CREDENTIAL_VARIANTS) {
      const derived = variant.build('Bearer', token)?.derived;
      if (derived === undefined) continue;
      const { stdout } = await run('sh', ['-c', `printf '%s' "${derived.shell}"`], { env: { ...process.env, TOKEN: token, LC_ALL: 'C' } });
      expect(stdout, `${variant.name}: ${derived.shell}`).toBe(derived.text);
    }
  });

  describe('with curl, against a server that records the lines it receives', () => {
    const received: string[][] = [];
    const server = createServer((req: IncomingMessage, res) => {
      const lines: string[] = [];
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) if ((req.rawHeaders[i] ?? '').toLowerCase() === 'authorization') lines.push(req.rawHeaders[i + 1] ?? '');
      received.push([req.url ?? '', ...lines]);
      req.resume();
      req.on('end', () => res.end());
    });
    let base: URL;
    beforeAll(async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
    afterAll(() => {
      server.closeAllConnections();
      server.close();
    });

    it.each(['test-token', 'Ab+/9_-x='])('sends, for every variant, the Authorization lines and query the engine sent, and never shows the token (token %s)', async (token) => {
      const client = createHttpClient(base, { concurrency: 1 });
      try {
        const cases = coverageCases(contract, { token, kinds: ['bad-auth', 'valid'] }).filter((c) => c.kind === 'bad-auth' || c.variant.includes('Authorization'));
        expect(cases.length).toBeGreaterThan(30);
        for (const c of cases) {
          received.length = 0;
          await client.send(c);
          const command = toCurl(base, c, token);
          for (const secret of [token, c.derived?.text].filter((s): s is string => s !== undefined && s.length > 2)) {
            expect(command, c.variant).not.toContain(secret);
            expect(JSON.stringify(reportedRequest(base, c, token)), c.variant).not.toContain(secret);
          }
          await run('sh', ['-c', `${command} >/dev/null`], { env: { ...process.env, TOKEN: token } });
          expect(received[1], `${c.variant}\n${command}`).toEqual(received[0]);
        }
      } finally {
        client.close();
      }
    });
  });
});

describe('docs/credentials.md', () => {
  it('has the credential table as the code writes it (paste credentialTableMarkdown() there when the table changes)', () => {
    const page = readFileSync(new URL('../../docs/credentials.md', import.meta.url), 'utf8');
    expect(page).toContain(credentialTableMarkdown());
  });
});
