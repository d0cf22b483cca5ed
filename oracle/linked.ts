/**
 * What the checks of the stateful phase share (resource-available, deleted-stays-deleted,
 * replacement-visible): the sequence a read ends, its severity, and how an answer differs from
 * the resource it must show.
 */
import { isJsonObject, parseJson, type Contract, type JsonValue } from '../src/openapi/index.js';
import type { HttpOutcome, LinkStep, RequestCase, ResponseOutcome } from './types.js';
import { failure, warning, type Judgement } from './check.js';
import { operationOf } from './declared.js';
import { decodeJson, sameJson, show } from './json-values.js';
import { isKeyValue } from './resource-walks.js';
import { parameterText } from './walks.js';

/** A finding of a sequence: a failure along a declared link, a warning along the collection/item pattern the contract does not declare. */
export function linkJudgement(step: LinkStep, message: string): Judgement {
  return step.inferred === true ? warning(`${message} (the contract declares no link: the sequence follows the collection/item pattern)`) : failure(message);
}

/** Whether the request ends a sequence expecting `expects`, with an answer that is no server error (no-server-error's). */
export function endsSequence(request: RequestCase, outcome: HttpOutcome, expects: LinkStep['expects']): boolean {
  return request.link?.expects === expects && outcome.kind === 'response' && outcome.status < 500;
}

/**
 * How a 2xx answer's body differs from the resource: each property of the resource that the
 * answer's schema declares and the answer does not have exactly (integers digit for digit, or as
 * the string of their digits). As `echo` judges: a property the schema does not declare may be
 * dropped, and a server may add properties.
 */
export function resourceDifferences(contract: Contract, request: RequestCase, outcome: ResponseOutcome, resource: string): string[] {
  const expected: JsonValue = parseJson(resource);
  const parsed = decodeJson(outcome.body);
  if (!('value' in parsed)) return [`the body is ${parsed.error}`];
  if (!isJsonObject(expected)) return [];
  if (!isJsonObject(parsed.value)) return [`the body is not an object but ${show(parsed.value)}`];
  const got = parsed.value;
  const schema = operationOf(contract, request)?.response(outcome.status)?.schema;
  const declared = schema === undefined ? undefined : contract.shapeOf(schema).properties;
  return Object.entries(expected)
    .filter(([key]) => declared === undefined || declared.size === 0 || declared.has(key))
    .flatMap(([key, value]) => {
      const back = Object.hasOwn(got, key) ? got[key] : undefined;
      return sameJson(value, back) ? [] : [`${key} is ${show(value)} but came back as ${show(back)}`];
    });
}

/** The sequence, for messages. */
export function along(request: RequestCase): string {
  return `${request.method} ${request.path} (after ${request.link?.via ?? 'a link'})`;
}

/** Where the key of the resource could not be read from the create's answer: the sequence could not go on, a failure of the create's. */
export function unresolvedJudgement(request: RequestCase): Judgement[] {
  const step = request.link;
  return step?.unresolved === undefined ? [] : [linkJudgement(step, `${along(request)}: ${step.unresolved}`)];
}

/**
 * How a 2xx answer's key differs from the key the create sent or answered: a resource keeps its
 * key (the server's, once assigned, names it - RFC 9110, section 9.3.1: the read transfers the
 * same resource). Absent from the answer, it is response-shape's to judge.
 */
export function keyDifference(request: RequestCase, outcome: ResponseOutcome): string[] {
  const key = request.link?.key;
  const parsed = decodeJson(outcome.body);
  if (key === undefined || !('value' in parsed) || !isJsonObject(parsed.value) || !Object.hasOwn(parsed.value, key.property)) return [];
  const back = parsed.value[key.property];
  return isKeyValue(back) && parameterText(back) === key.text ? [] : [`the key ${key.property} was ${JSON.stringify(key.text)} (as the create gave it) but came back as ${show(back)}: a resource's key changed`];
}
