/**
 * Sequences along the resource patterns real APIs use (oracle/resource-walks.ts): the parents'
 * creates (outermost first), the resource's create, then one of
 * - a read (`resource-available`: what was sent, and the key unchanged);
 * - a delete, then a read (`deleted-stays-deleted`);
 * - a replace, then a read (`replacement-visible`; only for a key the server assigns, which the
 *   replacement cannot change);
 * - an update by PATCH, then a read (`update-visible`: the merge, members not in the patch kept);
 * - the collection's list, its pages followed (`listed-after-create`).
 * A key the server assigns is a placeholder the engine fills from the create's answer as it sends
 * (AnswerBinding), so that the case is still made whole from the seed and replayed like any other.
 */
import fc from 'fast-check';
import { isJsonObject, parseJson, stringifyJson, type Contract, type JsonObject, type OperationContract, type ResourcePattern } from '../../src/openapi/index.js';
import { declaredPart, isKeyValue, openPatchResult, parameterText, updatedResource, type AnswerBinding, type LinkStep, type RequestCase, type ResourceWalk } from '../../oracle/index.js';
import { modelHasLoneSurrogate, modelHasPrototypeKey, writeJson, type JsonModel } from './json-text.js';
import { SchemaArbitraries } from './schema-arbitraries.js';
import { jsonMediaType, step, type SequenceOptions } from './sequences.js';
import { plainParameters, parameterKey, type ParameterText } from './tables/operation-context.js';

export type ResourceShape = 'read' | 'delete-then-read' | 'replace-then-read' | 'update-then-read' | 'list-after-create' | 'create-with-key';

/** The shapes a resource walk makes; `covered`: the walk's create is already walked along links (walks.ts), so only the update and the list are new. */
export function resourceShapesOf(walk: ResourceWalk, covered: boolean): ResourceShape[] {
  const has = (role: 'read' | 'remove' | 'replace' | 'update' | 'list'): boolean => walk.pattern.operations.has(role);
  const read = has('read');
  const shapes: ResourceShape[] = [];
  if (!covered && read) shapes.push('read');
  if (!covered && read && has('remove')) shapes.push('delete-then-read');
  if (!covered && read && walk.pattern.keyOrigin === 'server' && writable(walk.pattern.operations.get('replace'))) shapes.push('replace-then-read');
  if (read && writable(walk.pattern.operations.get('update'))) shapes.push('update-then-read');
  if (has('list')) shapes.push('list-after-create');
  if (sendsKeyValidly(walk.pattern)) shapes.push('create-with-key');
  return shapes;
}

/** Whether a create may carry a value for the key the server assigns and stay valid: its body marks the key readOnly, or does not declare it and allows other properties. */
function sendsKeyValidly(pattern: ResourcePattern): boolean {
  const body = pattern.operations.get('create')?.requestBody;
  if (pattern.keyOrigin !== 'server' || body === undefined || jsonMediaType(pattern.operations.get('create') as OperationContract) === undefined) return false;
  return body.shape.properties.has(pattern.keyProperty) || body.schema.additionalProperties === undefined || body.schema.additionalProperties === true;
}

function writable(operation: OperationContract | undefined): boolean {
  return operation !== undefined && jsonMediaType(operation) !== undefined;
}

/** Sequences drawn from the resource walks: a walk, a shape, the bodies of its creates and of its replace or update. */
export function resourceSequenceArbitrary(contract: Contract, choices: readonly { readonly walk: ResourceWalk; readonly shape: ResourceShape }[], options: SequenceOptions): fc.Arbitrary<RequestCase> {
  const schemas = new SchemaArbitraries(contract);
  const plain = (operation: OperationContract | undefined): fc.Arbitrary<string | undefined> =>
    operation?.requestBody === undefined
      ? fc.constant(undefined)
      : schemas
          .valid(operation.requestBody.schema)
          .filter((model: JsonModel) => !modelHasLoneSurrogate(model) && !modelHasPrototypeKey(model))
          .map((model) => writeJson(model));
  return fc.constantFrom(...choices).chain(({ walk, shape }) => {
    const second = shape === 'replace-then-read' ? walk.pattern.operations.get('replace') : shape === 'update-then-read' ? walk.pattern.operations.get('update') : undefined;
    return fc
      .record({
        parents: fc.tuple(...walk.parents.map((parent) => plain(parent.operations.get('create')))),
        created: plain(walk.pattern.operations.get('create')),
        second: plain(second),
        key: shape === 'create-with-key' ? schemas.valid(walk.pattern.keySchema).map((model) => writeJson(model)) : fc.constant(undefined),
      })
      .map(({ parents, created, second: body, key }) => resourceSequence(contract, walk, shape, { parents: parents.map((p) => p ?? '{}'), created: withKey(created ?? '{}', walk.pattern.keyProperty, key), second: body }, options));
  });
}

/** The bodies of a sequence: each parent's create, the resource's create, its replace or update. */
export interface SequenceBodies {
  readonly parents: readonly string[];
  readonly created: string;
  readonly second: string | undefined;
}

/** One sequence of a resource walk: its last request ends it, the steps before are its setup. */
export function resourceSequence(contract: Contract, walk: ResourceWalk, shape: ResourceShape, bodies: SequenceBodies, options: SequenceOptions): RequestCase {
  const schemas = new SchemaArbitraries(contract);
  const keys: Record<string, string> = {};
  const bindings: AnswerBinding[] = [];
  const setup: RequestCase[] = [];
  const chain = [...walk.parents, walk.pattern];
  let key: { property: string; text: string } = { property: walk.pattern.keyProperty, text: '' };
  const request = (operation: OperationContract, body: string | undefined, variant: string, sentAs?: string): RequestCase => {
    const values: Record<string, ParameterText> = { ...plainParameters(schemas, operation, 0) };
    for (const parameter of operation.parameters) if (parameter.in === 'path' && keys[parameter.name] !== undefined) values[parameterKey(parameter)] = keys[parameter.name] as string;
    const sent = step(operation, values, body, options, variant, sentAs);
    return bindings.length === 0 ? sent : { ...sent, bindings: [...bindings] };
  };
  chain.forEach((pattern, index) => {
    const create = pattern.operations.get('create') as OperationContract;
    const body = index < walk.parents.length ? (bodies.parents[index] ?? '{}') : bodies.created;
    setup.push(request(create, body, index < walk.parents.length ? `a create of the parent (${pattern.collection}) first` : `a create to walk ${pattern.collection}`));
    key = { property: pattern.keyProperty, text: keyText(pattern, body, index, bindings) };
    if (pattern.keyParameter !== undefined) keys[pattern.keyParameter] = key.text;
  });
  const operations = walk.pattern.operations;
  const via = (...roles: string[]): string => [`${operations.get('create')?.operationId ?? 'create'} ${walk.pattern.collection}`, ...roles].join(' → ');
  const ends = (operation: OperationContract, link: LinkStep, variant: string): RequestCase => ({ ...request(operation, undefined, variant), setup, link: walk.inferred ? { ...link, inferred: true } : link });
  const read = operations.get('read') as OperationContract;
  const created = declaredPart(operations.get('create') as OperationContract, bodies.created);
  if (shape === 'create-with-key') {
    // The create itself ends the sequence: the key it sent is the one its answer must not adopt.
    const create = setup.pop() as RequestCase;
    const sent = parseJson(bodies.created);
    const value = isJsonObject(sent) ? sent[walk.pattern.keyProperty] : undefined;
    const link: LinkStep = { via: via(), expects: 'assigned', key: { property: walk.pattern.keyProperty, text: isKeyValue(value) ? parameterText(value) : '' } };
    return { ...create, variant: `a create that sends a value for the key ${walk.pattern.keyProperty} the server assigns`, setup, link: walk.inferred ? { ...link, inferred: true } : link };
  }
  if (shape === 'list-after-create') {
    const list = operations.get('list') as OperationContract;
    return ends(list, { via: via('list'), expects: 'listed', key, page: 1, pages: LIST_PAGES }, `the list after a create, its pages followed (at most ${LIST_PAGES})`);
  }
  if (shape === 'delete-then-read') {
    setup.push(request(operations.get('remove') as OperationContract, undefined, 'the delete of the created resource'));
    return ends(read, { via: via('delete', 'read'), expects: 'gone' }, 'a read after the delete');
  }
  if (shape === 'replace-then-read' && bodies.second !== undefined) {
    const replace = operations.get('replace') as OperationContract;
    setup.push(request(replace, bodies.second, 'the replace of the created resource'));
    return ends(read, { via: via('replace', 'read'), expects: 'replaced', resource: declaredPart(replace, bodies.second), key }, 'a read after the replace');
  }
  if (shape === 'update-then-read' && bodies.second !== undefined) {
    const update = operations.get('update') as OperationContract;
    const sentAs = mergePatchType(update) ?? jsonMediaType(update);
    const create = operations.get('create') as OperationContract;
    const drawn = leavingOneOut(withoutKey(declaredPart(update, bodies.second), walk.pattern.keyProperty), created, [create, update]);
    const patch = keepingItemValid(contract, update, drawn, created, sentAs);
    setup.push(request(update, patch, `the update (${sentAs ?? 'JSON'}) of the created resource`, sentAs));
    const resource = updatedResource(created, patch, sentAs !== undefined && mergePatchType(update) === sentAs);
    return ends(read, { via: via('update', 'read'), expects: 'updated', resource, key }, 'a read after the update');
  }
  return ends(read, { via: via('read'), expects: 'created', resource: created, key }, 'a read of the created resource');
}

/** Pages of a list the engine follows at most, looking for the item created. */
export const LIST_PAGES = 10;

/** The key's text: the client's, from the body it sends; the server's, a placeholder filled from the create's answer. */
function keyText(pattern: ResourcePattern, body: string, step: number, bindings: AnswerBinding[]): string {
  if (pattern.keyOrigin === 'client') {
    const parsed = parseJson(body);
    const value = isJsonObject(parsed) ? parsed[pattern.keyProperty] : undefined;
    if (isKeyValue(value)) return parameterText(value);
  }
  const placeholder = `__key${step}__`;
  bindings.push({ placeholder, step, property: pattern.keyProperty, item: pattern.item, parameter: pattern.keyParameter });
  return placeholder;
}

function mergePatchType(operation: OperationContract): string | undefined {
  return operation.requestBody?.mediaTypes.find((t) => /^application\/merge-patch\+json$/i.test(t));
}

/** The create's body with a value of its own for the key the server assigns. */
function withKey(body: string, property: string, key: string | undefined): string {
  const value = parseJson(body);
  return key === undefined || !isJsonObject(value) ? body : stringifyJson({ ...value, [property]: parseJson(key) });
}

/**
 * The patch naming a strict subset of the created resource's members wherever the schemas allow:
 * where it names them all, the first member that neither the create nor the update requires is
 * left out (the patch still valid), so that an update that replaces instead of merging drops it,
 * visibly (update-visible). A patch that already leaves one out, or whose members are all
 * required, is sent as it was drawn.
 */
function leavingOneOut(patch: string, created: string, [create, update]: readonly [OperationContract, OperationContract]): string {
  const value = parseJson(patch);
  const resource = parseJson(created);
  if (!isJsonObject(value) || !isJsonObject(resource)) return patch;
  const members = Object.keys(resource);
  if (members.some((name) => !Object.hasOwn(value, name))) return patch;
  const required = (operation: OperationContract, name: string): boolean => operation.requestBody?.shape.required.has(name) ?? false;
  for (const name of members.filter((member) => !required(create, member) && !required(update, member))) {
    const fewer = Object.fromEntries(Object.entries(value).filter(([member]) => member !== name));
    if (update.requestBody?.validate(fewer).valid ?? true) return stringifyJson(fewer);
  }
  return patch;
}

/**
 * The patch without the members that would leave an item the item schema refuses (a null where
 * the item's member is required or not nullable; openPatchResult), judged on the created resource,
 * which the engine knows: a server must refuse such a patch, and the read after it would show
 * the create. The patch as drawn where every member is fine, or where what is left is no valid
 * patch.
 */
function keepingItemValid(contract: Contract, update: OperationContract, patch: string, created: string, sentAs: string | undefined): string {
  const value = parseJson(patch);
  const stored = parseJson(created);
  if (!isJsonObject(value) || !isJsonObject(stored)) return patch;
  const open = (members: JsonObject): boolean => openPatchResult(contract, update, { method: 'PATCH', path: update.path, headers: { 'content-type': sentAs ?? 'application/json' }, body: Buffer.from(stringifyJson(members)) }, stored) !== undefined;
  if (!open(value)) return patch;
  const kept = Object.fromEntries(Object.entries(value).filter(([name, member]) => !open({ [name]: member })));
  return open(kept) || !(update.requestBody?.validate(kept).valid ?? true) ? patch : stringifyJson(kept);
}

/** A patch without the key property: the key names the resource, an update does not move it. */
function withoutKey(patch: string, property: string): string {
  const value = parseJson(patch);
  if (!isJsonObject(value) || !Object.hasOwn(value, property)) return patch;
  return stringifyJson(Object.fromEntries(Object.entries(value).filter(([name]) => name !== property)));
}
