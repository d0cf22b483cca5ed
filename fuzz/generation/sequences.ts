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
import {
  evaluateExpression,
  exactInteger,
  isJsonObject,
  isLosslessNumber,
  parseJson,
  resourcePatterns,
  stringifyJson,
  type Contract,
  type ExchangeValues,
  type JsonValue,
  type LinkContract,
  type OperationContract,
  type RuntimeExpression,
} from '../../src/openapi/index.js';
import type { LinkStep, Profile, RequestCase } from '../types.js';
import { modelHasLoneSurrogate, modelHasPrototypeKey, writeJson, type JsonModel } from './json-text.js';
import { SchemaArbitraries } from './schema-arbitraries.js';

/** An operation a create leads to, and how its parameters are taken from the create's exchange. */
export interface LinkTarget {
  /** The link's name, or the pattern's role where the contract declares no link. */
  readonly name: string;
  readonly operation: OperationContract;
  readonly parameters: LinkContract['parameters'];
}

/** A create and where it leads, by the method of the target (GET read, PUT replace, DELETE remove). */
export interface Walk {
  readonly create: OperationContract;
  /** The success status whose links these are, for people. */
  readonly status: string;
  readonly read: LinkTarget | undefined;
  readonly replace: LinkTarget | undefined;
  readonly remove: LinkTarget | undefined;
  /** From the collection/item pattern: the contract declares no link. */
  readonly inferred: boolean;
}

/** The sequences a walk gives: each ends with a read. */
export type SequenceShape = 'read' | 'delete-then-read' | 'replace-then-read';

const SUCCESS = /^2\d\d$/;

/** The walks of a contract: along its links where a create declares some, else along its collection/item patterns. */
export function walksOf(contract: Contract): Walk[] {
  const walks = contract.operations.flatMap((create) => linkedWalks(contract, create));
  if (walks.length > 0) return walks.filter((walk) => walk.read !== undefined);
  return resourcePatterns(contract).flatMap((pattern): Walk[] => {
    const create = pattern.operations.get('create');
    const read = pattern.operations.get('read');
    if (create === undefined || read === undefined || pattern.keyParameter === undefined) return [];
    const key: RuntimeExpression = { source: 'request.body', pointer: `/${pattern.keyProperty.replace(/~/g, '~0').replace(/\//g, '~1')}` };
    const target = (role: 'read' | 'replace' | 'remove'): LinkTarget | undefined => {
      const operation = pattern.operations.get(role);
      return operation === undefined ? undefined : { name: `${role} by the pattern`, operation, parameters: { [pattern.keyParameter as string]: key } };
    };
    return [{ create, status: create.declaredStatuses.find((s) => s >= 200 && s < 300)?.toString() ?? '2XX', read: target('read'), replace: target('replace'), remove: target('remove'), inferred: true }];
  });
}

/** A create's walks: one per success response that declares links, its targets by method. */
function linkedWalks(contract: Contract, create: OperationContract): Walk[] {
  if (create.requestBody === undefined) return [];
  return create.responses
    .filter((response) => SUCCESS.test(response.status) && response.links.length > 0)
    .map((response) => {
      const byMethod = (method: string): LinkTarget | undefined => {
        const link = response.links.find((l) => contract.operationById(l.operationId)?.method === method);
        const operation = link === undefined ? undefined : contract.operationById(link.operationId);
        const target = link === undefined || operation === undefined ? undefined : { name: link.name, operation, parameters: link.parameters };
        return target !== undefined && followable(target, create) ? target : undefined;
      };
      return { create, status: response.status, read: byMethod('GET'), replace: byMethod('PUT'), remove: byMethod('DELETE'), inferred: false };
    });
}

/**
 * Whether the sequence can be made before it is sent: each required path parameter of the target
 * is a constant or a required property of the body the create sends (a key the server assigns, known
 * only from its answer, cannot be: such a link is not walked).
 */
function followable(target: LinkTarget, create: OperationContract): boolean {
  const shape = create.requestBody?.shape;
  return target.operation.parameters
    .filter((parameter) => parameter.in === 'path' || parameter.required)
    .every((parameter) => {
      const given = target.parameters[parameter.name] ?? target.parameters[`${parameter.in}.${parameter.name}`];
      if (given === undefined) return false;
      if ('constant' in given) return true;
      const property = (given.source === 'request.body' || given.source === 'response.body') && /^\/[^/]+$/.test(given.pointer) ? given.pointer.slice(1).replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
      return property !== undefined && shape?.required.has(property) === true;
    });
}

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

/**
 * A read through the walk's link after `writes` of one resource were in flight together (the
 * overlap phase): it must answer one of them, whichever was applied last, never a mix. No setup:
 * the writes were sent before it.
 */
export function readAfterWrites(walk: Walk, writes: readonly string[], options: SequenceOptions): RequestCase | undefined {
  const [first, ...others] = writes;
  if (walk.read === undefined || first === undefined) return undefined;
  const exchange = createdExchange(walk.create, first, Number(walk.status) || 200);
  const via = `${walk.create.operationId} ${walk.status} → ${walk.read.name}, after ${writes.length} writes of it in flight together`;
  const link: LinkStep = { via, expects: 'created', resource: declaredPart(walk.create, first), alternatives: others.map((write) => declaredPart(walk.create, write)), ...(walk.inferred ? { inferred: true } : {}) };
  return { ...linkedRequest(walk.read, exchange, undefined, options, `a read of the resource after ${writes.length} writes of it in flight together, through ${walk.read.name}`), link };
}

/**
 * The properties of a body its operation's request schema declares: what a read must answer
 * (a property the schema does not declare may be dropped, as `echo` allows).
 */
function declaredPart(operation: OperationContract, text: string): string {
  const value = parseJson(text);
  const declared = operation.requestBody?.shape.properties;
  if (!isJsonObject(value) || declared === undefined || declared.size === 0) return text;
  return stringifyJson(Object.fromEntries(Object.entries(value).filter(([key]) => declared.has(key))));
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
  for (const [written, given] of Object.entries(target.parameters)) {
    const value = 'constant' in given ? given.constant : evaluateExpression(given, exchange);
    const name = written.replace(/^(path|query|header)\./, '');
    const parameter = target.operation.parameters.find((p) => p.name.toLowerCase() === name.toLowerCase() && (written === name || written.startsWith(`${p.in}.`)));
    if (parameter === undefined || value === undefined) continue;
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

/** A value as a parameter's text: an integer digit for digit, never through a double. */
function parameterText(value: JsonValue): string {
  if (isLosslessNumber(value)) return exactInteger(value)?.toString() ?? value.value;
  return typeof value === 'string' ? value : JSON.stringify(value);
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
