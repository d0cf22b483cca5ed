/**
 * Sequences along the contract's links (the stateful phase): a create - a valid request of an
 * operation whose success declares links - then the operations its links lead to, by their
 * method's meaning (RFC 9110, section 9.3): a read answers what was created; a delete, then a
 * read, answers no resource; a replace, then a read, answers the replacement. Where a contract
 * declares no links, the collection/item pattern (src/openapi/resources.ts) gives the same walks,
 * marked `inferred` (their findings are warnings).
 *
 * The sequence is made before it is sent: a link's runtime expression is evaluated on the create
 * as a conforming target answers it - its answer is the resource sent (the `echo` check judges
 * that it is) - so that each sequence is a RequestCase whose setup is the steps before its last
 * read, replayed and reported like any case (its requests as curl commands).
 */
import fc from 'fast-check';
import { parseJson, type Contract, type ExchangeValues, type OperationContract } from '../../src/openapi/index.js';
import type { LinkStep, Profile, RequestCase } from '../types.js';
import { modelHasLoneSurrogate, modelHasPrototypeKey, writeJson, type JsonModel } from './json-text.js';
import { SchemaArbitraries } from './schema-arbitraries.js';
import { declaredPart, linkedValues, parameterText, type LinkTarget, type Walk } from '../judging/walks.js';

/** The walks (judging/walks.ts) are where the sequences go; the proxy reads them too. */
export { walksOf, type LinkTarget, type Walk } from '../judging/walks.js';

/** The sequences a walk gives: each ends with a read. */
export type SequenceShape = 'read' | 'delete-then-read' | 'replace-then-read';

/** The shapes of sequence a walk can make. */
export function shapesOf(walk: Walk): SequenceShape[] {
  return [
    ...(walk.read === undefined ? [] : ['read' as const]),
    ...(walk.read !== undefined && walk.remove !== undefined ? ['delete-then-read' as const] : []),
    ...(walk.read !== undefined && walk.replace?.operation.requestBody !== undefined ? ['replace-then-read' as const] : []),
  ];
}

export interface SequenceOptions {
  readonly token: string;
  readonly profile: Profile;
}

/** Sequences drawn from the contract's walks: a shape, a created body and a replacement. */
export function sequenceArbitrary(contract: Contract, walks: readonly Walk[], options: SequenceOptions): fc.Arbitrary<RequestCase> {
  const schemas = new SchemaArbitraries(contract);
  // Bodies whose answer the RFCs leave open (a lone surrogate, a prototype key) are the other phases' to send.
  const plain = (operation: OperationContract): fc.Arbitrary<JsonModel> =>
    schemas.valid(operation.requestBody?.schema ?? {}).filter((model) => !modelHasLoneSurrogate(model) && !modelHasPrototypeKey(model));
  const choices = walks.flatMap((walk) => shapesOf(walk).map((shape) => ({ walk, shape })));
  return fc.constantFrom(...choices).chain(({ walk, shape }) =>
    fc
      .record({ created: plain(walk.create), replacement: walk.replace === undefined ? fc.constant(undefined) : plain(walk.replace.operation) })
      .map(({ created, replacement }) => sequenceCase(walk, shape, writeJson(created), replacement === undefined ? undefined : writeJson(replacement), options)),
  );
}

/** One sequence: its steps before the last read are the case's setup. */
export function sequenceCase(walk: Walk, shape: SequenceShape, created: string, replacement: string | undefined, options: SequenceOptions): RequestCase {
  const read = walk.read as LinkTarget;
  const exchange = createdExchange(walk.create, created, Number(walk.status) || 200);
  const create = step(walk.create, walk.create.path, created, options, `a create to follow its links (${walk.status})`);
  const via = (...targets: LinkTarget[]): string => [`${walk.create.operationId} ${walk.status}`, ...targets.map((t) => t.name)].join(' → ');
  const link = (expects: LinkStep['expects'], through: LinkTarget[], resource?: string): LinkStep => ({ via: via(...through), expects, ...(resource === undefined ? {} : { resource }), ...(walk.inferred ? { inferred: true } : {}) });
  const readStep = (setup: RequestCase[], step: LinkStep, variant: string): RequestCase => ({ ...linkedRequest(read, exchange, undefined, options, variant), setup, link: step });
  if (shape === 'delete-then-read' && walk.remove !== undefined) {
    const remove = linkedRequest(walk.remove, exchange, undefined, options, `the delete ${walk.remove.name} leads to`);
    return readStep([create, remove], link('gone', [walk.remove, read]), `a read after the delete, through ${read.name}`);
  }
  if (shape === 'replace-then-read' && walk.replace !== undefined && replacement !== undefined) {
    const replace = linkedRequest(walk.replace, exchange, replacement, options, `the replace ${walk.replace.name} leads to`);
    return readStep([create, replace], link('replaced', [walk.replace, read], declaredPart(walk.replace.operation, replacement)), `a read after the replace, through ${read.name}`);
  }
  return readStep([create], link('created', [read], declaredPart(walk.create, created)), `a read of the created resource, through ${read.name}`);
}

/** The create's exchange as a conforming target answers it: the resource sent comes back. */
function createdExchange(create: OperationContract, created: string, status: number): ExchangeValues {
  const body = parseJson(created);
  return { url: create.path, method: create.method, statusCode: status, request: { path: {}, query: {}, headers: {}, body }, response: { headers: {}, body } };
}

/** A request of a link's target: its parameters from the create's exchange (OpenAPI 3.1, section 4.8.20.4), each where the target declares it. */
function linkedRequest(target: LinkTarget, exchange: ExchangeValues, body: string | undefined, options: SequenceOptions, variant: string): RequestCase {
  let path = target.operation.path;
  const query: string[] = [];
  const headers: Record<string, string> = {};
  for (const { parameter, value } of linkedValues(target, exchange)) {
    // The default styles (section 4.8.12.4): `simple` in the path and headers, `form` in the query.
    const text = parameterText(value);
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(text));
    else if (parameter.in === 'query') query.push(`${encodeURIComponent(parameter.name)}=${encodeURIComponent(text)}`);
    else headers[parameter.name.toLowerCase()] = text;
  }
  const withQuery = query.length === 0 ? path : `${path}?${query.join('&')}`;
  const request = step(target.operation, withQuery, body, options, variant);
  return { ...request, headers: { ...request.headers, ...headers } };
}

/** A valid request of an operation, with valid credentials where the operation is secured. */
function step(operation: OperationContract, path: string, body: string | undefined, options: SequenceOptions, variant: string): RequestCase {
  const headers: Record<string, string> = { accept: 'application/json' };
  const mediaType = operation.requestBody?.mediaTypes.find((t) => /^application\/json$/i.test(t));
  if (body !== undefined && mediaType !== undefined) headers['content-type'] = mediaType;
  // The engine speaks HTTP bearer only (generation/tables/context.ts refuses other schemes).
  if (operation.security.length > 0) headers.authorization = `Bearer ${options.token}`;
  return { method: operation.method, path, headers, body: Buffer.from(body ?? '', 'utf8'), kind: 'stateful', variant, content: 'valid', credentials: 'valid', setup: [] };
}
