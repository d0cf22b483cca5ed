/**
 * The links of a response (OpenAPI 3.1, section 4.8.20): which operation a response leads to and
 * how that operation's parameters are taken from the exchange, by runtime expressions (section
 * 4.8.20.4) such as `$response.body#/id`. The kit reads the expressions that name one value of
 * the exchange; a link it cannot follow exactly (an operationRef outside the document, an
 * unknown target, an expression embedded in text) is not followed, and named among the contract's
 * unchecked parts: it is no reason to refuse the contract.
 */
import { isJsonObject, parseJson, stringifyJson, type JsonValue } from './json.js';
import { asRecord, decodePointerSegment, type RefuseFeature } from './types.js';

/** A runtime expression the kit evaluates: where in the exchange, and which value there. */
export type RuntimeExpression =
  | { readonly source: 'url' | 'method' | 'statusCode' }
  | { readonly source: 'request.path' | 'request.query' | 'request.header' | 'response.header'; readonly name: string }
  | { readonly source: 'request.body' | 'response.body'; readonly pointer: string };

export interface LinkContract {
  readonly name: string;
  /** The operation the link leads to (its operationId, or `METHOD /path` when it has none). */
  readonly operationId: string;
  /** The target's parameters, by name (a `path.`/`query.`/`header.` prefix as the contract wrote it), each an expression or a constant. */
  readonly parameters: Readonly<Record<string, RuntimeExpression | { readonly constant: JsonValue }>>;
  readonly pointer: string;
}

/** The exchange a runtime expression reads. Header names in lower case; bodies lossless. */
export interface ExchangeValues {
  readonly url: string;
  readonly method: string;
  readonly statusCode: number;
  readonly request: { readonly path: Readonly<Record<string, string>>; readonly query: Readonly<Record<string, string>>; readonly headers: Readonly<Record<string, string>>; readonly body: JsonValue | undefined };
  readonly response: { readonly headers: Readonly<Record<string, string>>; readonly body: JsonValue | undefined };
}

const NAMED = /^\$(request\.path|request\.query|request\.header|response\.header)\.(.+)$/;
const BODY = /^\$(request\.body|response\.body)(#.*)?$/;

/** A runtime expression, or undefined when the kit does not evaluate it. */
export function parseExpression(text: string): RuntimeExpression | undefined {
  if (text === '$url' || text === '$method' || text === '$statusCode') return { source: text.slice(1) as 'url' | 'method' | 'statusCode' };
  const named = NAMED.exec(text);
  if (named) return { source: named[1] as 'request.path', name: named[1]?.endsWith('header') === true ? (named[2] as string).toLowerCase() : (named[2] as string) };
  const body = BODY.exec(text);
  if (body) return { source: body[1] as 'request.body', pointer: (body[2] ?? '#').slice(1) };
  return undefined;
}

/** The value an expression names in an exchange, or undefined when the exchange lacks it. */
export function evaluateExpression(expression: RuntimeExpression, exchange: ExchangeValues): JsonValue | undefined {
  switch (expression.source) {
    case 'url':
      return exchange.url;
    case 'method':
      return exchange.method;
    case 'statusCode':
      return String(exchange.statusCode);
    case 'request.path':
      return exchange.request.path[expression.name];
    case 'request.query':
      return exchange.request.query[expression.name];
    case 'request.header':
      return exchange.request.headers[expression.name];
    case 'response.header':
      return exchange.response.headers[expression.name];
    case 'request.body':
      return atPointer(exchange.request.body, expression.pointer);
    case 'response.body':
      return atPointer(exchange.response.body, expression.pointer);
  }
}

/** RFC 6901: the value at a JSON pointer, or undefined. */
export function atPointer(value: JsonValue | undefined, pointer: string): JsonValue | undefined {
  let node = value;
  for (const segment of pointer.split('/').slice(1).map(decodePointerSegment)) {
    if (isJsonObject(node)) node = Object.hasOwn(node, segment) ? node[segment] : undefined;
    else if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(segment)) node = node[Number(segment)];
    else return undefined;
  }
  return node;
}

/** A link's parameters, each a constant or a runtime expression; else the first the kit cannot read. */
function linkParameters(given: Record<string, unknown>): { parameters: LinkContract['parameters'] } | { unreadable: string; parameter: string } {
  const parameters: Record<string, RuntimeExpression | { constant: JsonValue }> = {};
  for (const [parameter, value] of Object.entries(given)) {
    if (typeof value !== 'string' || !value.includes('$')) {
      parameters[parameter] = { constant: parseJson(stringifyJson(value ?? null)) };
      continue;
    }
    const expression = parseExpression(value);
    if (expression === undefined) return { unreadable: value, parameter };
    parameters[parameter] = expression;
  }
  return { parameters };
}

/**
 * The links of a response. `operationOf(ref)` finds an operation by a local operationRef
 * (`#/paths/~1plants~1{id}/get`), `hasOperation(id)` says whether an operationId exists.
 */
export function compileLinks(
  links: Record<string, unknown>,
  at: string,
  targets: { readonly operationOf: (ref: string) => string | undefined; readonly hasOperation: (id: string) => boolean; readonly resolve: (value: Record<string, unknown>) => Record<string, unknown> },
  unchecked: RefuseFeature,
): LinkContract[] {
  const compiled: LinkContract[] = [];
  for (const [name, raw] of Object.entries(links)) {
    const pointer = `${at}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const link = targets.resolve(asRecord(raw));
    let operationId: string | undefined;
    if (typeof link.operationId === 'string') operationId = targets.hasOperation(link.operationId) ? link.operationId : undefined;
    else if (typeof link.operationRef === 'string') operationId = targets.operationOf(link.operationRef);
    if (operationId === undefined) {
      unchecked(`the link ${name} to an operation the kit cannot find in the document (not followed)`, pointer);
      continue;
    }
    const read = linkParameters(asRecord(link.parameters));
    if ('unreadable' in read) {
      unchecked(`the runtime expression ${read.unreadable} of link ${name} (the link is not followed)`, `${pointer}/parameters/${read.parameter}`);
      continue;
    }
    const { parameters } = read;
    if (link.requestBody !== undefined) unchecked(`the requestBody of link ${name} (its parameters are followed, its body is not)`, `${pointer}/requestBody`);
    compiled.push({ name, operationId, parameters, pointer });
  }
  return compiled;
}
