/**
 * `other-method`: on every path of the contract, the methods of RFC 9110, section 9 the path does
 * not declare, with valid credentials and the plain values of the path's parameters; sent once a
 * path, from its first operation; `method-semantics` judges the answers.
 *
 * - each common method the path does not declare (405 with an Allow header listing the declared
 *   ones, RFC 9110, section 15.5.6), and OPTIONS, TRACE and CONNECT (section 9.3);
 * - HEAD where GET is declared (answered as GET without content, section 9.3.2): of the plain
 *   values, and, on an item path, of an item its collection's create stored just before (setup) -
 *   a server that writes the body only where it found something (Python's `do_HEAD = do_GET`,
 *   whose `send_error` leaves a HEAD's 404 bare) shows it only there;
 * - a method no registry knows (a valid token, section 9.1: 501 or 405), and the path's first
 *   method in lower case (methods are case-sensitive, section 9.1: another, unrecognised method),
 *   with the body that method takes - a server that upper-cases the method acts on it;
 * - once a contract, `OPTIONS *` (the asterisk-form, RFC 9112, section 3.2.4).
 */
import fc from 'fast-check';
import { METHOD_TAG_PREFIX, resourceWalksOf, type RequestCase } from '../../../oracle/index.js';
import { writeJson } from '../json-text.js';
import { resourceSequence } from '../resource-sequences.js';
import type { OperationContext } from '../tables/operation-context.js';
import { operationKind } from './kind.js';

/**
 * Methods a client may send to any resource (RFC 9110, section 9.3; PATCH, RFC 5789): a path
 * that does not declare one answers it 405 with Allow.
 */
export const COMMON_METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'];

/** The other methods RFC 9110, section 9.3 defines: about the server or the connection more than the resource (OPTIONS, TRACE) or for proxies (CONNECT). */
export const OTHER_RFC_METHODS: readonly string[] = ['OPTIONS', 'TRACE', 'CONNECT'];

/** A method no registry knows, spelled as the grammar allows (a token, RFC 9110, section 9.1). */
export const UNKNOWN_METHOD = 'FROBNICATE';

/** Where the plain bodies of HEAD's setup creates are drawn: apart from the other kinds' coverage requests. */
const FIRST_BODY = 8000;

/**
 * A connection of its own (and `Connection: close`) for a method a parser may refuse before the
 * request is whole (node:http's llhttp answers 400 to the first bytes of a method outside its table,
 * and drops a CONNECT): on a pooled connection that early answer reads as bytes the previous one left.
 */
const PARSER_REFUSED = {};

const make = (context: OperationContext, method: string, variant: string, tags: readonly string[] = []): RequestCase =>
  context.make({ kind: 'other-method', variant, content: 'valid', auth: context.validAuth, values: context.plainParameters(0), method, tags: [`${METHOD_TAG_PREFIX}${method}`, ...tags] });

/** HEAD of an item the setup just stored: the item path's collection/item pattern, its creates (the parents' first), then HEAD where the read would go. */
function headOfStoredItem(context: OperationContext): RequestCase | undefined {
  const walk = resourceWalksOf(context.contract).find((w) => w.pattern.item === context.operation.path && w.pattern.operations.has('read') && w.pattern.operations.has('create'));
  if (walk === undefined) return undefined;
  const body = (pattern: (typeof walk.parents)[number], n: number): string => {
    const schema = pattern.operations.get('create')?.requestBody?.schema;
    return schema === undefined ? '{}' : writeJson(context.schemas.plain(schema, FIRST_BODY + n));
  };
  const options = { token: context.token, profile: context.profile, ...(context.credentials === undefined ? {} : { credentials: context.credentials }) };
  const read = resourceSequence(context.contract, walk, 'read', { parents: walk.parents.map((parent, i) => body(parent, i + 1)), created: body(walk.pattern, 0), second: undefined }, options);
  // The read's link is what a GET must answer; HEAD is method-semantics' to judge.
  const rest = Object.fromEntries(Object.entries(read).filter(([name]) => name !== 'link')) as unknown as RequestCase;
  return { ...rest, method: 'HEAD', kind: 'other-method', variant: `HEAD of an item its create stored just before (${walk.pattern.collection} → ${walk.pattern.item})`, tags: [`${METHOD_TAG_PREFIX}HEAD`, 'head:stored-item'] };
}

/** The path's first method in lower case, with the request that method is (its plain body): a server that reads methods case-insensitively acts on it. */
function lowerCase(context: OperationContext, declared: readonly string[]): RequestCase {
  const method = context.operation.method.toLowerCase();
  const request = context.make({ kind: 'other-method', variant: `${method}: ${context.operation.method} in lower case, another method (RFC 9110, section 9.1: methods are case-sensitive; the path declares ${declared.join(', ')})`, content: 'valid', auth: context.validAuth, values: context.plainParameters(0), n: FIRST_BODY, tags: [`${METHOD_TAG_PREFIX}${method}`, 'method-token:lower-case'] });
  return { ...request, method, framing: PARSER_REFUSED };
}

function cases(context: OperationContext): RequestCase[] {
  const declared = [...context.contract.operationsAt(context.operation.path).keys()];
  // Once a path: from its first operation.
  if (declared[0] !== context.operation.method) return [];
  const undeclared = [...COMMON_METHODS, ...OTHER_RFC_METHODS].filter((method) => !declared.includes(method));
  const listed = declared.join(', ');
  const methods = undeclared.flatMap((method): RequestCase[] => {
    if (method === 'CONNECT') return [{ ...make(context, method, `CONNECT, which the path does not declare (${listed})`, ['method-token:rfc']), framing: PARSER_REFUSED }];
    if (method !== 'HEAD') return [make(context, method, `${method}, which the path does not declare (${listed})`, OTHER_RFC_METHODS.includes(method) ? ['method-token:rfc'] : [])];
    if (!declared.includes('GET')) return [];
    const stored = headOfStoredItem(context);
    return [make(context, method, `HEAD where GET is declared (${listed})`), ...(stored === undefined ? [] : [stored])];
  });
  const unknown = { ...make(context, UNKNOWN_METHOD, `${UNKNOWN_METHOD}, a method no registry knows (RFC 9110, section 9.1: 501, or 405; the path declares ${listed})`, ['method-token:unknown']), framing: PARSER_REFUSED };
  // The asterisk-form once a contract, from its first operation.
  const asterisk = context.contract.operations[0] === context.operation ? [{ ...make(context, 'OPTIONS', 'OPTIONS * (the asterisk-form, RFC 9112, section 3.2.4): the server as a whole', ['target-form:asterisk']), path: '*', framing: { target: '*' } }] : [];
  return [...methods, unknown, lowerCase(context, declared), ...asterisk];
}

export const otherMethod = operationKind({
  name: 'other-method',
  description: 'every method of RFC 9110 a path does not declare (405 with Allow expected; OPTIONS, TRACE and CONNECT may get 501), HEAD where GET is declared (GET without content expected; on an item path, of an item stored just before too), an unknown method and one in lower case (501 or 405), and OPTIONS *',
  // Coverage only: the same few requests whatever the seed, and the random phase's mix stays the body's and the parameters'.
  weight: 0,
  random: (context) => {
    const all = cases(context);
    return all.length === 0 ? undefined : fc.constantFrom(...all);
  },
  coverage: cases,
});
