/**
 * The integer key of a write: the values of every property of its body that the contract types as
 * integer (the ids), how the engine tells two writes of one resource apart from writes of two. Not
 * the item key of src/openapi/resources.ts (the one property an item path's parameter names).
 */
import { exactInteger, isJsonObject, isLosslessNumber, type Contract, type OperationContract } from '../src/openapi/index.js';
import { operationOf } from './declared.js';
import { decodeJson } from './json-values.js';
import type { HttpRequest } from './types.js';

/** integerKeyProperties of each operation, derived once (every request the run keys asks). */
const keyProperties = new WeakMap<OperationContract, { readonly contract: Contract; readonly keys: readonly string[] }>();

/**
 * The properties of an operation's request body that make its integer key: those the contract
 * types as integer (the ids). The one place they are
 * derived: the generators repeat a key (a repeated id, the capacity phase's replacements), the run
 * keeps two requests with the same key out of flight together (integerKey), and `echo` forgives
 * an answer that carries another request's values for the same resource. An operation without a
 * request body has none.
 */
export function integerKeyProperties(contract: Contract, operation: OperationContract | undefined): string[] {
  if (operation === undefined) return [];
  const known = keyProperties.get(operation);
  if (known?.contract === contract) return [...known.keys];
  const properties = operation.requestBody === undefined ? [] : [...operation.requestBody.shape.properties];
  const keys = properties.filter(([, schema]) => contract.resolve(schema).type === 'integer').map(([key]) => key);
  keyProperties.set(operation, { contract, keys });
  return [...keys];
}

/**
 * The resource a request writes, as text to compare: its path without the query string and the
 * exact integers of its body's key properties (1e2 is 100); undefined when its body is no JSON
 * object or holds none of them as a number.
 */
export function integerKey(contract: Contract, request: HttpRequest): string | undefined {
  const keys = integerKeyProperties(contract, operationOf(contract, request));
  if (keys.length === 0) return undefined;
  const parsed = decodeJson(request.body);
  if (!('value' in parsed) || !isJsonObject(parsed.value)) return undefined;
  const value = parsed.value;
  const parts = keys.map((key) => {
    const v = value[key];
    return isLosslessNumber(v) ? String(exactInteger(v) ?? v.value) : '';
  });
  return parts.every((part) => part === '') ? undefined : `${request.path.split('?', 1)[0] ?? ''} ${parts.join(' ')}`;
}
