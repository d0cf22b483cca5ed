/**
 * Whether one answer of the soak is inside the contract: the conformance engine's seven checks
 * (fuzz/, judged by openapi.yaml), plus what the reference implementation in particular must
 * answer (docs/DESIGN.md decisions 1-4 and 8): the exact status for this kind of request, an Error
 * whose `error` is that status, an Error for paths and methods the contract does not have, and
 * the id echoed digit for digit. Pure: returns the violations as `check: message` strings.
 */
import { runChecks, type HttpOutcome, type RequestCase } from '../fuzz/index.js';
import { exactInteger, isJsonObject, isLosslessNumber, loadContract, parseJson, stringifyJson, type Contract, type JsonValue } from '../src/openapi/index.js';
import type { Kind } from './workload.js';

export interface SoakExchange {
  readonly kind: Kind;
  /** The body as sent, when the kind builds a new one per request. */
  readonly sentBody?: string;
  readonly status: number;
  /** Response headers; names in any case. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly body: string;
}

function parse(text: string): JsonValue | undefined {
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}

/** The exchange in the engine's terms (lower-case header names, repeated ones joined, as its client gives them). */
export function asEngineExchange(exchange: SoakExchange): { request: RequestCase; outcome: HttpOutcome } | undefined {
  const { kind } = exchange;
  if (kind.label === undefined) return undefined;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(exchange.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = typeof value === 'string' ? value : value.join(', ');
  }
  const sent = exchange.sentBody ?? kind.body;
  return {
    request: { method: kind.method, path: kind.path, headers: { ...kind.headers }, body: typeof sent === 'string' ? Buffer.from(sent) : sent, kind: kind.label, variant: kind.name, content: kind.content ?? 'valid', credentials: kind.credentials ?? 'valid', setup: [] },
    outcome: { kind: 'response', status: exchange.status, headers, body: Buffer.from(exchange.body), durationMs: 0 },
  };
}

export function judgeSoakExchange(exchange: SoakExchange, contract: Contract = loadContract()): string[] {
  const { kind, status } = exchange;
  const engine = asEngineExchange(exchange);
  const violations = engine ? runChecks(engine.request, engine.outcome, contract, { profile: 'reference' }).map((v) => `${v.check}: ${v.message}`) : [];

  if (status !== kind.expect) violations.push(`reference: ${kind.name} answered ${status}, expected ${kind.expect}`);
  const body = parse(exchange.body);
  if (status !== 200) {
    // The engine judges the operation's answers by openapi.yaml; another path or method is no
    // operation, and the kit still answers it with an Error (docs/DESIGN.md, decision 4).
    if (!engine && !(body !== undefined && contract.validatorForComponent('Error')(body).valid)) violations.push(`reference: ${status} body is not an Error: ${exchange.body.slice(0, 80)}`);
    if (isJsonObject(body) && !(isLosslessNumber(body.error) && body.error.value === String(status))) violations.push(`reference: Error.error is not the status ${status}`);
  } else if (isJsonObject(body)) {
    // Decision 3: the answer is the plant as stored, its id included, digit for digit.
    const sent = parse((exchange.sentBody ?? kind.body).toString());
    const sentId = isJsonObject(sent) && isLosslessNumber(sent.id) ? exactInteger(sent.id) : undefined;
    const gotId = isLosslessNumber(body.id) ? exactInteger(body.id) : undefined;
    if (sentId === undefined || gotId !== sentId) violations.push(`reference: id ${stringifyJson(body.id ?? null)} is not the id sent`);
  }
  return violations;
}
