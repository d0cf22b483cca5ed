/**
 * Where a contract's links lead from a create (OpenAPI 3.1, section 4.8.20), by the method of
 * each target (RFC 9110, section 9.3): a read (GET), a replace (PUT), a remove (DELETE). Where a
 * contract declares no links, the collection/item pattern (src/openapi/resources.ts) gives the
 * same walks, marked `inferred` (their findings are warnings). Both sides of the stateful checks
 * read them: the engine's sequences (generation/sequences.ts) are made along them, and the proxy
 * remembers what it saw along them (observed-links.ts).
 */
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
  type ParameterContract,
  type RuntimeExpression,
} from '../src/openapi/index.js';

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

const SUCCESS = /^2\d\d$/;

/** The walks of a contract: along its links where a create declares some, else along its collection/item patterns. */
export function walksOf(contract: Contract): Walk[] {
  const walks = contract.operations.flatMap((create) => linkedWalks(contract, create));
  if (walks.length > 0) return walks.filter((walk) => walk.read !== undefined);
  return resourcePatterns(contract).flatMap((pattern): Walk[] => {
    const create = pattern.operations.get('create');
    const read = pattern.operations.get('read');
    // Only a key the create sends, under a top-level collection, can be walked before the answer is seen (see followable).
    if (create === undefined || read === undefined || pattern.keyParameter === undefined || pattern.keyOrigin !== 'client' || pattern.parentParameters.length > 0) return [];
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

/** A parameter of a link's target and how the link gives its value: an expression or a constant. */
export interface LinkedParameter {
  readonly parameter: ParameterContract;
  readonly given: LinkContract['parameters'][string];
}

/** The target's parameters the link gives values, each as the target declares it (a `path.`/`query.`/`header.` prefix picks the location). */
export function linkedParameters(target: LinkTarget): LinkedParameter[] {
  return Object.entries(target.parameters).flatMap(([written, given]) => {
    const name = written.replace(/^(path|query|header)\./, '');
    const parameter = target.operation.parameters.find((p) => p.name.toLowerCase() === name.toLowerCase() && (written === name || written.startsWith(`${p.in}.`)));
    return parameter === undefined ? [] : [{ parameter, given }];
  });
}

/** A parameter of a link's target and the value the link gives it. */
export interface LinkedValue {
  readonly parameter: ParameterContract;
  readonly value: JsonValue;
}

/** The values a link gives its target's parameters from an exchange (OpenAPI 3.1, section 4.8.20.4); a parameter the exchange gives no value is left out. */
export function linkedValues(target: LinkTarget, exchange: ExchangeValues): LinkedValue[] {
  return linkedParameters(target).flatMap(({ parameter, given }) => {
    const value = 'constant' in given ? given.constant : evaluateExpression(given, exchange);
    return value === undefined ? [] : [{ parameter, value }];
  });
}

/** A value as a parameter's text: an integer digit for digit, never through a double. */
export function parameterText(value: JsonValue): string {
  if (isLosslessNumber(value)) return exactInteger(value)?.toString() ?? value.value;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The properties of a body its operation's request schema declares: what a read must answer
 * (a property the schema does not declare may be dropped, as `echo` allows).
 */
export function declaredPart(operation: OperationContract, text: string): string {
  const value = parseJson(text);
  const declared = operation.requestBody?.shape.properties;
  if (!isJsonObject(value) || declared === undefined || declared.size === 0) return text;
  return stringifyJson(Object.fromEntries(Object.entries(value).filter(([key]) => declared.has(key))));
}
