/**
 * `framing`: the operation's plain valid request, framed in the other ways HTTP/1.1 allows, each
 * of which a server must read as it reads the plain one (rule 1 still holds). And query strings with percent-escapes, valid and
 * invalid (RFC 3986, section 2.1): a server may refuse them, never with a 5xx or by dying (every
 * later request would then fail too). Each goes on a connection of its own (the client's
 * `Connection: close`, RFC 9112, section 9.6), except the escapes, which go on the pooled ones.
 */
import type { RequestCase, RequestFraming } from '../../types.js';
import type { KindContext } from '../tables/context.js';
import { requestKind } from './kind.js';

/** A framing a server must read like the plain request, with what it is for people. */
interface FramingVariant {
  readonly variant: string;
  readonly framing: RequestFraming;
}

/** The framings of a valid request (RFC 9112 sections; RFC 9110, section 10.1.1 for Expect). */
export const VALID_FRAMINGS: readonly FramingVariant[] = [
  { variant: 'Connection: close from the client (RFC 9112, section 9.6)', framing: {} },
  { variant: 'HTTP/1.0 (RFC 9112, section 2.3)', framing: { version: '1.0' } },
  { variant: 'HTTP/1.0 with Connection: keep-alive (RFC 9112, section 9.3)', framing: { version: '1.0', keepAlive: true } },
  { variant: 'Expect: 100-continue (RFC 9110, section 10.1.1)', framing: { expectContinue: true } },
  { variant: 'a chunked body (RFC 9112, section 7.1)', framing: { chunked: true } },
];

/**
 * Held back from the default run: RFC 9112 demands both, and Express, fastify, Hono, node:http
 * (a 404 to an absolute-form target: they route on the raw target) and Python's http.server (a
 * 200 without Host) all break them, so sending them by default would fail the field's common
 * stores. Whether they are failures or warnings is still to decide; the client sends them.
 */
export function heldBackFramingCases(context: KindContext): RequestCase[] {
  const body = (n: number): Uint8Array => context.text(context.plainBody(FIRST_BODY + 100 + n));
  return [
    { ...context.make({ kind: 'framing', variant: 'an absolute-form target (RFC 9112, section 3.2.2)', content: 'valid', auth: context.validAuth, contentType: context.jsonTypes[0], body: body(0), tags: ['framing:absolute-form'] }), framing: { absoluteForm: true } },
    { ...context.make({ kind: 'framing', variant: 'no Host field: 400 (RFC 9112, section 3.2)', content: 'invalid', auth: context.validAuth, contentType: context.jsonTypes[0], body: body(1), tags: ['framing:no-host'] }), framing: { noHost: true } },
  ];
}

/** Query strings with percent-escapes: valid ones, one of bytes that are not UTF-8, and invalid ones (RFC 3986, section 2.1). */
export const ESCAPED_QUERIES: readonly string[] = ['q=%41', 'q=caf%C3%A9', 'q=%E9', 'q=%zz', 'q=%', 'q=%2', '%zz=1'];

const ESCAPE_REASON = 'the contract declares no query parameters and forbids none, and an invalid percent-escape makes the target invalid (RFC 3986, section 2.1): a server may refuse it, never with a 5xx';

/** Ids apart from the other kinds' coverage requests. */
const FIRST_BODY = 9000;

function framingCases(context: KindContext): RequestCase[] {
  const cases = VALID_FRAMINGS.map(({ variant, framing }, i) => ({
    ...context.make({ kind: 'framing', variant, content: 'valid', auth: context.validAuth, contentType: context.jsonTypes[0], body: context.text(context.plainBody(FIRST_BODY + i)), tags: [`framing:${i}`] }),
    framing,
  }));
  const escapes = ESCAPED_QUERIES.map((query, i) =>
    context.make({
      kind: 'framing',
      variant: `the query ${query}`,
      content: 'valid',
      auth: context.validAuth,
      contentType: context.jsonTypes[0],
      body: context.text(context.plainBody(FIRST_BODY + cases.length + 1 + i)),
      extras: { headers: {}, query, note: `?${query}`, lenient: ESCAPE_REASON },
      lenient: ESCAPE_REASON,
      lenientAbout: 'refusal',
      tags: [`framing:query:${query}`],
    }),
  );
  return [...cases, ...escapes];
}

export const framing = requestKind({
  name: 'framing',
  description: 'a valid NewPlant framed otherwise: Connection: close, HTTP/1.0 with and without keep-alive, Expect: 100-continue, a chunked body (each must get 200); query strings with valid and invalid percent-escapes (never a 5xx)',
  weight: 0,
  random: () => undefined,
  coverage: framingCases,
});
