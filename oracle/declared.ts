/** What the contract declares for a request: its operation, the operation's success statuses and 4xx, a schema's name for messages. */
import { successStatuses as successOfOperation, type Contract, type OperationContract, type Schema } from '../src/openapi/index.js';
import type { HttpRequest } from './types.js';

const operationsFound = new WeakMap<HttpRequest, { readonly contract: Contract; readonly operation: OperationContract | undefined }>();

/**
 * The operation a request is for, ignoring its query string; found once per request and contract
 * however many checks ask. Methods are case-sensitive (RFC 9110, section 9.1): `post` is another
 * method than POST, and no operation's.
 */
export function operationOf(contract: Contract, request: HttpRequest): OperationContract | undefined {
  const known = operationsFound.get(request);
  if (known?.contract === contract) return known.operation;
  const found = contract.findOperation(request.method, request.path.split('?', 1)[0] ?? request.path);
  const operation = found?.method.toUpperCase() === request.method ? found : undefined;
  operationsFound.set(request, { contract, operation });
  return operation;
}

/** The statuses of an operation's success: its declared 2xx, else 200 (rule 1) or the redirect it declares alone (src/openapi/success.ts). */
export function successStatuses(operation: OperationContract | undefined): number[] {
  return operation === undefined ? [200] : successOfOperation(operation);
}

/**
 * Whether the status is a 4xx the operation declares: exactly, by a 4XX range, or by `default`,
 * which stands for every status the operation does not list (OpenAPI 3.1, section 4.8.16.1: "the
 * default MAY be used as a default Response Object for all HTTP codes that are not covered
 * individually by the Responses Object"); or any 4xx where the operation declares no status for
 * refusing invalid input (declaresNoRefusal).
 */
export function isDeclared4xx(operation: OperationContract | undefined, status: number): boolean {
  if (status < 400 || status >= 500) return false;
  return operation?.response(status) !== undefined || declaresNoRefusal(operation);
}

/**
 * The statuses that say "your request is not one I take": 400 Bad Request (RFC 9110, section
 * 15.5.1) and 422 Unprocessable Content (section 15.5.21). A 401, 403, 404 or 409 speaks of
 * something else - credentials, permission, a missing resource, a conflict - not of invalid input.
 */
const REFUSALS = ['400', '422'];

/**
 * Whether the operation declares no status for refusing invalid input: no 400, no 422, no 4XX
 * range, no `default` - however many other 4xx it lists (a 404 for a missing item, a 401 for
 * credentials). Its contract then leaves the refusal of invalid input open ("it is not expected
 * that the documentation necessarily cover all possible HTTP response codes", OpenAPI 3.1,
 * section 4.8.16), and any 4xx is a server's only honest refusal of a request the contract calls
 * invalid: status-declared warns of it, never fails it.
 */
export function declaresNoRefusal(operation: OperationContract | undefined): boolean {
  return operation !== undefined && !operation.responses.some((r) => REFUSALS.includes(r.status) || /^4xx$/i.test(r.status) || r.status === 'default');
}

/** The 4xx an operation declares, for messages: its own, a 4XX range, and `default` where it has one. */
export function declared4xx(operation: OperationContract | undefined): string[] {
  return operation?.responses.map((r) => r.status).filter((s) => s.startsWith('4') || s === 'default') ?? [];
}

export function schemaName(schema: Schema | undefined): string {
  const ref = schema?.$ref;
  return typeof ref === 'string' ? (/[^/]+$/.exec(ref)?.[0] ?? 'schema') : 'the declared schema';
}
