/**
 * Whether one answer of the soak is inside the contract: a pure function of the request kind,
 * what was sent, and the response, judged by openapi.yaml through src/contract. Returns the
 * violations as data (empty when the answer holds).
 */
import { exactInteger, isJsonObject, isLosslessNumber, loadContract, parseJson, stringifyJson, type Contract, type JsonValue } from '../src/contract/index.js';
import type { Kind } from './workload.js';

export interface Exchange {
  readonly kind: Kind;
  /** The body as sent, when the kind builds a new one per request. */
  readonly sentBody?: string;
  readonly status: number;
  /** Response headers; names in any case. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly body: string;
}

function headerValue(headers: Exchange['headers'], name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return typeof value === 'string' ? value : value?.[0];
  }
  return undefined;
}

function parse(text: string): JsonValue | undefined {
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}

/** The answer's violations: 5xx, media type, undeclared status, body or required header outside the contract, wrong status, lost echo. */
export function checkExchange(exchange: Exchange, contract: Contract = loadContract()): string[] {
  const { kind, status } = exchange;
  const violations: string[] = [];
  if (status >= 500) violations.push(`no-server-error: ${status}`);
  const mediaType = (headerValue(exchange.headers, 'content-type') ?? '').split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') violations.push(`response-shape: content-type ${mediaType === '' ? 'missing' : mediaType}`);
  const body = parse(exchange.body);
  if (body === undefined) violations.push(`response-shape: body is not JSON: ${exchange.body.slice(0, 80)}`);

  const operation = contract.findOperation(kind.method, kind.path.split('?', 1)[0] ?? kind.path);
  if (operation) {
    const response = operation.response(status);
    if (!response) violations.push(`status-declared: ${status} is not declared for ${operation.method} ${operation.path}`);
    else {
      if (body !== undefined && response.validateBody) {
        const validation = response.validateBody(body);
        if (!validation.valid) violations.push(`response-shape: ${status} body ${validation.issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`);
      }
      for (const [name, header] of response.headers) {
        if (header.required && headerValue(exchange.headers, name) === undefined) violations.push(`response-shape: ${status} without its required ${name} header`);
      }
    }
  } else if (body !== undefined) {
    // Another path or method is not an operation of the contract; the kit still answers it with an Error (DESIGN.md, decision 4).
    const validation = contract.validatorForComponent('Error')(body);
    if (!validation.valid) violations.push(`response-shape: ${status} body is not an Error`);
  }
  if (status !== 200 && isJsonObject(body) && !(isLosslessNumber(body.error) && body.error.value === String(status))) violations.push(`response-shape: Error.error is not the status ${status}`);
  if (status !== kind.expect) violations.push(`status: ${kind.name} answered ${status}, expected ${kind.expect}`);

  if (status === 200 && isJsonObject(body)) {
    const sent = parse(exchange.sentBody ?? kind.body.toString());
    if (isJsonObject(sent)) {
      if (body.name !== sent.name) violations.push('echo: name differs from the one sent');
      if (body.tag !== sent.tag) violations.push('echo: tag differs from the one sent');
      const sentId = isLosslessNumber(sent.id) ? exactInteger(sent.id) : undefined;
      const gotId = isLosslessNumber(body.id) ? exactInteger(body.id) : undefined;
      if (sentId === undefined || gotId !== sentId) violations.push(`echo: id ${stringifyJson(body.id ?? null)} differs from the ${stringifyJson(sent.id ?? null)} sent`);
    }
  }
  return violations;
}
