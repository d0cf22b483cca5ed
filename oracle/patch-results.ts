/**
 * What a PATCH leaves (RFC 5789): the stored item with the patch applied - by RFC 7396 for
 * `application/merge-patch+json` (null deletes a member), member by member for a partial JSON
 * object (whose nulls RFC 5789 leaves to the server: deleted or stored). A body valid by the
 * PATCH's own schema may still leave an item the contract's item schema refuses (`{"crop": null}`
 * where the item's crop is a string), and a server must then refuse it: whether it is accepted
 * depends on what is stored. Such a request is `open` (RequestCase.open): a declared 4xx passes as
 * a 2xx does. Only where the engine can prove every result valid is a 2xx demanded.
 */
import { isJsonObject, mediaTypeEssence, type Contract, type JsonObject, type JsonValue, type OperationContract, type Schema, type ValidationIssue } from '../src/openapi/index.js';
import { successStatuses } from './declared.js';
import { requestBodyValue } from './media-values.js';
import { mergePatch } from './resource-walks.js';
import type { HttpRequest } from './types.js';

/** Why a PATCH whose result the engine cannot prove valid is open (RequestCase.open). */
export const PATCH_RESULT_OPENNESS =
  'RFC 7396, section 2 and RFC 5789: a PATCH applies to the item as stored, and the item it would leave must still satisfy the item schema; the contract leaves to the server a patch whose result it cannot prove valid, so a declared 4xx passes as a 2xx does';

/**
 * Keywords of an object schema that tie its members together: with one of them, the result of a
 * patch cannot be judged member by member without the stored item.
 */
const COUPLING_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'dependencies', 'minProperties', 'maxProperties', 'patternProperties', 'propertyNames', 'unevaluatedProperties', 'enum', 'const', '$dynamicRef'];

/** The item schema of an update: its first declared success answer's JSON schema, with its validator. */
function itemSchemaOf(operation: OperationContract): { schema: Schema; validate: (value: JsonValue) => readonly ValidationIssue[] } | undefined {
  for (const status of successStatuses(operation)) {
    const response = operation.response(status);
    const validate = response?.validateBody;
    if (response?.schema !== undefined && validate !== undefined) return { schema: response.schema, validate: (value) => validate(value).issues };
  }
  return undefined;
}

/** Whether each member of the schema is judged by its own subschema alone (allOf parts that are plain themselves included). */
function judgedMemberByMember(contract: Contract, schema: Schema, depth = 0): boolean {
  const resolved = contract.resolve(schema);
  if (depth > 16) return false;
  const parts = Array.isArray(resolved.allOf) ? (resolved.allOf as Schema[]) : [];
  const own = COUPLING_KEYWORDS.filter((keyword) => keyword !== 'allOf').some((keyword) => keyword in resolved);
  return !own && parts.every((part) => judgedMemberByMember(contract, part, depth + 1));
}

/** The items a patch may leave of `stored`: one for a merge patch, two for a partial JSON object with a null (deleted, or stored as null). */
function results(stored: JsonObject, patch: JsonObject, merge: boolean): JsonObject[] {
  const merged = mergePatch(stored, patch) as JsonObject;
  if (merge || !Object.values(patch).includes(null)) return [merge ? merged : { ...stored, ...patch }];
  return [merged, { ...stored, ...patch }];
}

/**
 * The issues of an item a patch leaves, but a required member that neither the stored item (as
 * the engine knows it) nor the patch has: the server fills it (a key, a date it assigns). One the
 * patch deletes is an issue.
 */
function resultIssues(validate: (value: JsonValue) => readonly ValidationIssue[], result: JsonObject, patch: JsonObject): readonly ValidationIssue[] {
  const filled = (issue: ValidationIssue): boolean => issue.message === 'is required' && !Object.hasOwn(result, issue.field) && !Object.hasOwn(patch, issue.field);
  return validate(result).filter((issue) => !filled(issue));
}

/**
 * Why the PATCH request's result is open, or undefined where the engine can prove every item it
 * may leave valid by the item schema. `stored`: the item as the engine knows it (the create of its
 * own sequence); without it, the item could be any the item schema allows, and the proof holds
 * only where the schema judges each member alone and no member of the patch is an object (which a
 * merge patch merges into the stored one).
 */
export function openPatchResult(contract: Contract, operation: OperationContract | undefined, request: HttpRequest, stored?: JsonObject): string | undefined {
  if (operation === undefined || request.method.toUpperCase() !== 'PATCH') return undefined;
  const item = itemSchemaOf(operation);
  const sent = requestBodyValue(operation, request);
  if (item === undefined || !('value' in sent) || !isJsonObject(sent.value)) return undefined;
  const patch = sent.value;
  if (stored === undefined && (!judgedMemberByMember(contract, item.schema) || Object.values(patch).some((value) => isJsonObject(value)))) return PATCH_RESULT_OPENNESS;
  const merge = mediaTypeEssence(request.headers['content-type']) === 'application/merge-patch+json';
  const broken = results(stored ?? {}, patch, merge).some((result) => resultIssues(item.validate, result, patch).length > 0);
  return broken ? PATCH_RESULT_OPENNESS : undefined;
}
