/**
 * `framing`: the operation's plain valid request, framed in the other ways HTTP/1.1 allows, each
 * of which a server must read as it reads the plain one (rule 1 still holds). And query strings with percent-escapes, valid and
 * invalid (RFC 3986, section 2.1): a server may refuse them, never with a 5xx or by dying (every
 * later request would then fail too). Each goes on a connection of its own (the client's
 * `Connection: close`, RFC 9112, section 9.6), except the escapes, which go on the pooled ones.
 * The spellings of RFC 9112's grammar are tables/message-spellings.ts.
 */
import type { RequestCase, RequestFraming } from '../../../oracle/index.js';
import type { KindContext } from '../tables/context.js';
import { requestKind } from './kind.js';
import { MESSAGE_SPELLINGS, type MessageSpellingCase } from '../tables/message-spellings.js';

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

/** Query strings with percent-escapes: valid ones, one of bytes that are not UTF-8, and invalid ones (RFC 3986, section 2.1). */
export const ESCAPED_QUERIES: readonly string[] = ['q=%41', 'q=caf%C3%A9', 'q=%E9', 'q=%zz', 'q=%', 'q=%2', '%zz=1'];

const ESCAPE_REASON = 'the contract declares no query parameters and forbids none, and an invalid percent-escape makes the target invalid (RFC 3986, section 2.1): a server may refuse it, never with a 5xx';

/** Ids apart from the other kinds' coverage requests. */
const FIRST_BODY = 9000;

/**
 * RFC 9112, section 3.2.2: a server MUST accept an absolute-form target, "to allow for transition
 * to the absolute-form for all requests in some future version of HTTP"; HTTP/1.1 clients send it
 * only to proxies. Routers that match the raw target (Fastify's, node:http handlers', Python
 * http.server's comparing `self.path`) answer 404, which costs no client today: a refusal, any
 * 4xx, is a warning; a 5xx, a reset or a dead process is a failure, and an accepted one is
 * answered exactly.
 */
const ABSOLUTE_FORM_REASON = 'RFC 9112, section 3.2.2: a server MUST accept the absolute form, kept for a transition of a future HTTP; no HTTP/1.1 client sends it to an origin server, and routers that match the raw target answer 404';

/** The target and Host framings: the absolute form (see above), and no Host, which an HTTP/1.1 server MUST answer with 400 (RFC 9112, section 3.2). */
function targetCases(context: KindContext, first: number): RequestCase[] {
  const body = (n: number): Uint8Array => context.text(context.plainBody(first + n));
  const plain = { kind: 'framing', auth: context.validAuth, contentType: context.jsonTypes[0] };
  return [
    { ...context.make({ ...plain, variant: 'an absolute-form target (RFC 9112, section 3.2.2)', content: 'valid', body: body(0), lenient: ABSOLUTE_FORM_REASON, lenientAbout: 'target', tags: ['framing:absolute-form'] }), framing: { absoluteForm: true } },
    { ...context.make({ ...plain, variant: 'no Host field: 400 (RFC 9112, section 3.2)', content: 'invalid', body: body(1), tags: ['framing:no-host'] }), framing: { noHost: true } },
  ];
}

/** A request written as a MessageSpellingCase says, judged by its reading (tables/message-spellings.ts). */
function spellingCase(context: KindContext, spelling: MessageSpellingCase, n: number): RequestCase {
  const body = context.text(context.plainBody(n));
  const plain = { kind: 'framing', variant: spelling.variant, auth: context.validAuth, contentType: context.jsonTypes[0], body, tags: [spelling.tag] };
  const framing = spelling.framing(body.length);
  const reason = spelling.reason ?? spelling.variant;
  switch (spelling.reading) {
    case 'same':
      return { ...context.make({ ...plain, content: 'valid' }), framing };
    case 'refused':
      return { ...context.make({ ...plain, content: 'invalid' }), framing };
    case 'either':
      return { ...context.make({ ...plain, content: 'valid' }), framing, open: { reason, readings: [body] } };
    case 'unanswered':
      return { ...context.make({ ...plain, content: 'valid', lenient: reason }), framing, lenientAbout: 'silence' };
  }
}

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
  const spellings = MESSAGE_SPELLINGS.map((spelling, i) => spellingCase(context, spelling, FIRST_BODY + 200 + i));
  return [...cases, ...escapes, ...targetCases(context, FIRST_BODY + 100), ...spellings];
}

export const framing = requestKind({
  name: 'framing',
  description: 'a valid NewPlant framed otherwise: Connection: close (the server closes after its answer), HTTP/1.0 with and without keep-alive, Expect: 100-continue, a chunked body (each must get 200); query strings with valid and invalid percent-escapes (never a 5xx); an absolute-form target (a refusal warns); no Host (400 from an HTTP/1.1 server); and a representative of each class of RFC 9112\'s grammar: OWS, obs-fold, a space before the colon, a NUL, the request line\'s version and whitespace, invalid and doubled lengths, chunk extensions, trailers, a body cut between reads, Expect in HTTP/1.0, close on a second request (tables/message-spellings.ts)',
  weight: 0,
  random: () => undefined,
  coverage: framingCases,
});
