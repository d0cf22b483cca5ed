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
import { declaredPart, linkedValues, parameterText, type LinkStep, type LinkTarget, type Profile, type RequestCase, type Walk } from '../../oracle/index.js';
import { modelHasLoneSurrogate, modelHasPrototypeKey, writeJson, type JsonModel } from './json-text.js';
import { SchemaArbitraries } from './schema-arbitraries.js';
import { asOperationReadsIt, jsonTextAsOther } from './tables/media-bodies.js';
import { operationAuth, setCredentialFields } from './tables/context.js';
import type { EngineCredentials } from './tables/scheme-credentials.js';
import { parameterKey, plainParameters, requestTarget, type ParameterText, type ParameterTexts } from './tables/operation-context.js';

/** The walks (oracle/walks.ts) are where the sequences go; the proxy reads them too. */
export { walksOf, type LinkTarget, type Walk } from '../../oracle/index.js';

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
  /** Credentials per scheme and plain header fields (scheme-credentials.ts). */
  readonly credentials?: EngineCredentials;
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
      .map(({ created, replacement }) =>
        sequenceCase(contract, walk, shape, asOperationReadsIt(walk.create, writeJson(created)), replacement === undefined || walk.replace === undefined ? undefined : asOperationReadsIt(walk.replace.operation, writeJson(replacement)), options),
      ),
  );
}

/** One sequence: its steps before the last read are the case's setup. */
export function sequenceCase(contract: Contract, walk: Walk, shape: SequenceShape, created: string, replacement: string | undefined, options: SequenceOptions): RequestCase {
  const read = walk.read as LinkTarget;
  const exchange = createdExchange(walk.create, created, Number(walk.status) || 200);
  const schemas = new SchemaArbitraries(contract);
  const linkedRequest = (target: LinkTarget, body: string | undefined, variant: string): RequestCase => step(target.operation, linkedTexts(schemas, target, exchange), body, options, variant);
  const create = step(walk.create, plainParameters(schemas, walk.create, 0), created, options, `a create to follow its links (${walk.status})`);
  const link = (expects: LinkStep['expects'], through: LinkTarget[], resource?: string): LinkStep => linkStep(walk, expects, through, resource);
  const readStep = (setup: RequestCase[], step: LinkStep, variant: string): RequestCase => ({ ...linkedRequest(read, undefined, variant), setup, link: step });
  if (shape === 'delete-then-read' && walk.remove !== undefined) {
    const remove = linkedRequest(walk.remove, undefined, `the delete ${walk.remove.name} leads to`);
    return readStep([create, remove], link('gone', [walk.remove, read]), `a read after the delete, through ${read.name}`);
  }
  if (shape === 'replace-then-read' && walk.replace !== undefined && replacement !== undefined) {
    const replace = linkedRequest(walk.replace, replacement, `the replace ${walk.replace.name} leads to`);
    return readStep([create, replace], link('replaced', [walk.replace, read], declaredPart(walk.replace.operation, replacement)), `a read after the replace, through ${read.name}`);
  }
  return readStep([create], link('created', [read], declaredPart(walk.create, created)), `a read of the created resource, through ${read.name}`);
}

/**
 * A read through the walk's link after `writes` of one resource were in flight together (the
 * overlap phase): it must answer one of them, whichever was applied last, never a mix. No setup:
 * the writes were sent before it.
 */
export function readAfterWrites(contract: Contract, walk: Walk, writes: readonly string[], options: SequenceOptions): RequestCase | undefined {
  const [first, ...others] = writes;
  const read = walk.read;
  if (read === undefined || first === undefined) return undefined;
  const exchange = createdExchange(walk.create, first, Number(walk.status) || 200);
  const via = `${walk.create.operationId} ${walk.status} → ${read.name}, after ${writes.length} writes of it in flight together`;
  const link: LinkStep = { via, expects: 'created', resource: declaredPart(walk.create, first), alternatives: others.map((write) => declaredPart(walk.create, write)), ...(walk.inferred ? { inferred: true } : {}) };
  const variant = `a read of the resource after ${writes.length} writes of it in flight together, through ${read.name}`;
  return { ...step(read.operation, linkedTexts(new SchemaArbitraries(contract), read, exchange), undefined, options, variant), link };
}

/**
 * A read, through the walk's read, of a resource its create stored earlier, sent on its own (the
 * capacity phase reads back plants it stored): the create is not its setup, and the read must
 * answer what the create sent (`resource-available`). `lenient`: why the target may refuse it.
 */
export function readBackCase(contract: Contract, walk: Walk, created: string, options: SequenceOptions & { readonly variant: string; readonly lenient: string }): RequestCase {
  const read = walk.read as LinkTarget;
  const exchange = createdExchange(walk.create, created, Number(walk.status) || 200);
  const request = step(read.operation, linkedTexts(new SchemaArbitraries(contract), read, exchange), undefined, options, options.variant);
  return { ...request, lenient: options.lenient, lenientAbout: 'refusal', link: linkStep(walk, 'created', [read], declaredPart(walk.create, created)) };
}

/** What the read ending a sequence must answer, and the links it went through. */
function linkStep(walk: Walk, expects: LinkStep['expects'], through: readonly LinkTarget[], resource: string | undefined): LinkStep {
  const via = [`${walk.create.operationId} ${walk.status}`, ...through.map((t) => t.name)].join(' → ');
  return { via, expects, ...(resource === undefined ? {} : { resource }), ...(walk.inferred ? { inferred: true } : {}) };
}

/** The create's exchange as a conforming target answers it: the resource sent comes back. */
function createdExchange(create: OperationContract, created: string, status: number): ExchangeValues {
  const body = parseJson(created);
  return { url: create.path, method: create.method, statusCode: status, request: { path: {}, query: {}, headers: {}, body }, response: { headers: {}, body } };
}

/**
 * The parameters of a link's target: each the link gives, from the create's exchange (OpenAPI
 * 3.1, section 4.8.20.4), where the target declares it; every other required one its plain value,
 * as the other phases send it.
 */
function linkedTexts(schemas: SchemaArbitraries, target: LinkTarget, exchange: ExchangeValues): ParameterTexts {
  const values: Record<string, ParameterText> = { ...plainParameters(schemas, target.operation, 0) };
  for (const { parameter, value } of linkedValues(target, exchange)) values[parameterKey(parameter)] = parameterText(value);
  return values;
}

/** The JSON media type a body of the operation is sent as: `application/json` where offered, else the first `+json` (a PATCH may offer only `application/merge-patch+json`). */
export function jsonMediaType(operation: OperationContract): string | undefined {
  const types = operation.requestBody?.mediaTypes ?? [];
  return types.find((t) => /^application\/json$/i.test(t)) ?? types.find((t) => /^application\/[^;]*\+json$/i.test(t));
}

/** A valid request of an operation with these parameters (their default styles: `simple` in the path and headers, `form` in the query), with valid credentials where the operation is secured. */
export function step(operation: OperationContract, values: ParameterTexts, body: string | undefined, options: SequenceOptions, variant: string, sentAs?: string): RequestCase {
  const target = requestTarget(operation, values);
  const headers: Record<string, string> = { accept: 'application/json', ...target.headers };
  const mediaType = sentAs ?? jsonMediaType(operation);
  if (body !== undefined && mediaType !== undefined) headers['content-type'] = mediaType;
  Object.assign(headers, options.credentials?.headers);
  setCredentialFields(headers, operationAuth(operation, options).validAuth);
  const path = target.query === '' ? target.path : `${target.path}?${target.query}`;
  // A body of an operation that takes no JSON (a form, multipart) is written in its media type.
  const other = body !== undefined && mediaType === undefined ? jsonTextAsOther(operation, body) : undefined;
  if (other !== undefined) headers['content-type'] = other.contentType;
  const bytes = other?.bytes ?? Buffer.from(body ?? '', 'utf8');
  return { method: operation.method, path, headers, body: bytes, kind: 'stateful', variant, content: 'valid', credentials: 'valid', setup: [] };
}
