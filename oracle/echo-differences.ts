/** How a success answer differs from the body its request sent, and whether it is another request's answer (`echo`, `one-answer-per-request`). */
import { splitTarget } from '../src/http/portable.js';
import { hiddenIn, isJsonObject, resourcePatterns, type Contract, type ResourceRole, type JsonObject, type JsonValue, type ObjectShape, type OperationContract, type Schema } from '../src/openapi/index.js';
import { operationOf } from './declared.js';
import { integerKeyProperties } from './integer-key.js';
import { sameJson } from './json-values.js';
import { answerBodyValue, requestBodyValue, requestVariant } from './media-values.js';
import type { HttpOutcome, HttpRequest, NeighbourRequest, ResponseOutcome } from './types.js';

/** One property a success answer does not carry as the request sent it. */
export interface EchoDifference {
  readonly key: string;
  /** Undefined: the request did not send it. */
  readonly sent: JsonValue | undefined;
  /** Undefined: the answer does not have it. */
  readonly got: JsonValue | undefined;
}

/**
 * How a success answer differs from the request's body, property by property, derived from the
 * schemas: a property the request sent must come back exactly where the response schema declares
 * it (and where the answer has it otherwise, e.g. an id); a property the response schema declares
 * that the request could carry but did not must be absent (a plant is stored as sent, and a
 * repeated id replaces it - decision 2 - rather than merging). Properties the request schema does
 * not have, or marks readOnly or writeOnly, are the server's. Undefined when either body is not a JSON object.
 */
export function echoDifferences(contract: Contract, request: HttpRequest, outcome: ResponseOutcome): EchoDifference[] | undefined {
  const operation = operationOf(contract, request);
  if (!storesWhatItIsSent(contract, operation)) return undefined;
  const requestShape = requestShapeOf(contract, operation, request);
  const responseSchema = operation?.response(outcome.status)?.schema;
  if (!requestShape || !responseSchema) return undefined;
  const sent = requestBodyValue(operation, request);
  const got = answerBodyValue(operation, outcome.status, outcome.headers, outcome.body);
  if (!('value' in sent) || !('value' in got) || !isJsonObject(sent.value) || !isJsonObject(got.value)) return undefined;
  const sentObject: JsonObject = sent.value;
  const gotObject: JsonObject = got.value;
  const responseShape = contract.shapeOf(responseSchema);
  const echoed = responseShape.properties;
  const differences: EchoDifference[] = [];
  const resolve = (schema: Schema): Schema => contract.resolve(schema);
  for (const [key, property] of requestShape.properties) {
    // A readOnly property is the server's to set, a writeOnly one is never answered (OpenAPI 3.1,
    // section 4.8.24.4): neither is held to what was sent.
    if (hiddenIn('request', property, resolve) || hiddenIn('response', property, resolve)) continue;
    const present = Object.hasOwn(gotObject, key);
    const back = present ? gotObject[key] : undefined;
    // An update (RFC 5789 PATCH) keeps what it does not name, and a null it names removes the
    // member (RFC 7396, section 2; for a partial JSON object the server's choice).
    const update = request.method.toUpperCase() === 'PATCH';
    if (!Object.hasOwn(sentObject, key)) {
      if (!update && present && echoed.has(key) && !serverMayFill(contract, key, requestShape, responseShape)) differences.push({ key, sent: undefined, got: back });
      continue;
    }
    const value = sentObject[key] as JsonValue;
    if (update && value === null) continue;
    if (!present && !echoed.has(key)) continue;
    if (!sameJson(value, back)) differences.push({ key, sent: value, got: back });
  }
  return differences.length === 0 ? differences : withoutTargetKey(contract, operation, request, differences);
}

const PATTERNS = new WeakMap<Contract, ReturnType<typeof resourcePatterns>>();

function patternsOf(contract: Contract): ReturnType<typeof resourcePatterns> {
  const patterns = PATTERNS.get(contract) ?? resourcePatterns(contract);
  PATTERNS.set(contract, patterns);
  return patterns;
}

/** The roles of the collection/item pattern that write an item: what they answer is the item as sent. */
const WRITES: readonly ResourceRole[] = ['create', 'replace', 'update'];

/**
 * Whether the contract makes the operation store what it is sent: a create, replace or update of
 * its collection/item pattern (src/openapi/resources.ts; the bundled POST /plants is a create).
 * Of any other operation (`POST /exports/info`, `PUT /pet` with no item in its path) the contract
 * says nothing of how its answer relates to its body: nothing to echo.
 */
function storesWhatItIsSent(contract: Contract, operation: OperationContract | undefined): boolean {
  return operation !== undefined && patternsOf(contract).some((pattern) => WRITES.some((role) => pattern.operations.get(role) === operation));
}

/**
 * The differences left when the key a write to an item carries in its body comes back as the key
 * its target names: the target identifies the resource (RFC 9110, section 9.3.4: PUT sets the
 * state of the target resource; RFC 5789 for PATCH), and the contract does not say which of two
 * disagreeing keys a server keeps, so either is an echo (a refusal is `accepts-valid`'s business).
 */
function withoutTargetKey(contract: Contract, operation: OperationContract | undefined, request: HttpRequest, differences: EchoDifference[]): EchoDifference[] {
  if (operation === undefined) return differences;
  const pattern = patternsOf(contract).find((p) => p.item === operation.path && p.keyParameter !== undefined && (p.operations.get('replace') === operation || p.operations.get('update') === operation));
  if (pattern?.keyParameter === undefined) return differences;
  const { path, query } = splitTarget(request.path);
  const match = contract.matchPath(path);
  if (match === undefined) return differences;
  const parsed = operation.parseParameters({ path: match.values, query, headers: request.headers });
  if ('problem' in parsed) return differences;
  const named = parsed.path[pattern.keyParameter];
  if (named === undefined) return differences;
  return differences.filter((difference) => difference.key !== pattern.keyProperty || !sameJson(named, difference.got));
}

/** The shape of what the request sent: its Content-Type's variant's schema where that is not the preferred (a form beside JSON). */
function requestShapeOf(contract: Contract, operation: OperationContract | undefined, request: HttpRequest): ObjectShape | undefined {
  const variant = requestVariant(operation, request);
  if (variant?.schema === undefined || variant.codec.name === 'json') return operation?.requestBody?.shape;
  return contract.shapeOf(variant.schema);
}

/**
 * Whether the server may give a property the request did not send: one marked `readOnly` (JSON
 * Schema 2020-12 validation, section 9.4: managed by the owning authority, a server-assigned id),
 * one with a `default` (the value a server stores for an absent one), or one the answer must carry
 * (its schema requires it) though the request need not (a key the server assigns).
 */
function serverMayFill(contract: Contract, key: string, request: ObjectShape, response: ObjectShape): boolean {
  const fills = (schema: Schema | undefined): boolean => {
    const resolved = schema === undefined ? undefined : contract.resolve(schema);
    return resolved !== undefined && (resolved.readOnly === true || 'default' in resolved);
  };
  return fills(request.properties.get(key)) || fills(response.properties.get(key)) || (response.required.has(key) && !request.required.has(key));
}

/**
 * Whether two requests write the same resource: their bodies have the same values for every
 * property of the integer key (integerKeyProperties), and there is one. The answer to the
 * second may then carry the first's values because of what the target stored (`echo`'s finding),
 * not because it went to the wrong request.
 */
function sameResource(contract: Contract, a: HttpRequest, b: HttpRequest): boolean {
  const first = requestBodyValue(operationOf(contract, a), a);
  const second = requestBodyValue(operationOf(contract, b), b);
  if (!('value' in first) || !('value' in second) || !isJsonObject(first.value) || !isJsonObject(second.value)) return false;
  const keys = integerKeyProperties(contract, operationOf(contract, a));
  const x = first.value;
  const y = second.value;
  return keys.length > 0 && keys.every((key) => Object.hasOwn(x, key) && sameJson(x[key] as JsonValue, y[key]));
}

/**
 * The request this success answer belongs to when it is not its own: it differs from what its
 * request sent, and is exactly what another request carried - the one the connection carried
 * before, or one in flight at the same time (WireFacts.others) - for another resource.
 */
export function misdelivered(contract: Contract, request: HttpRequest, outcome: HttpOutcome): NeighbourRequest | undefined {
  if (outcome.kind !== 'response' || outcome.wire === undefined || outcome.wire.others.length === 0) return undefined;
  const own = echoDifferences(contract, request, outcome);
  if (own === undefined || own.length === 0) return undefined;
  return outcome.wire.others.find((other) => other.request !== request && echoDifferences(contract, other.request, outcome)?.length === 0 && !sameResource(contract, request, other.request));
}
