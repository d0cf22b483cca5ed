/**
 * The differential test's engine: the same requests go to the reference implementation and to
 * the mock, and their statuses must agree on every one (bodies may differ: the mock does not
 * store or echo). The requests come from a source that knows nothing of the comparison, so the
 * battery can be swapped for generated requests.
 */
import { acceptAnyToken, acceptTokens, bearerRefusal, isPreflight } from '../../src/http/index.js';
import type { Freedom } from './battery.js';
import { send, type WireRequest } from '../support/http.js';

export interface SourcedRequest {
  /** What is special about it, for people. */
  readonly description: string;
  readonly request: WireRequest;
}

/** Where the requests come from. */
export type RequestSource = () => Iterable<SourcedRequest> | AsyncIterable<SourcedRequest>;

export interface Disagreement {
  readonly description: string;
  /** The request as a person would read it: request line, headers, the start of the body. */
  readonly request: string;
  /** The reference's status, or what a freedom of the mock makes of it. */
  readonly expected: number;
  readonly mock: number;
  /** The freedom that applied, if one did. */
  readonly freedom?: Freedom;
}

export interface Comparison {
  readonly compared: number;
  readonly disagreements: Disagreement[];
}

export interface Targets {
  readonly referenceUrl: string;
  readonly mockUrl: string;
  /** The token the reference accepts. */
  readonly token: string;
}

/**
 * The mock's freedoms, told from the request itself (any source works):
 * - a well-formed bearer token the reference does not know: the mock accepts any, so it must
 *   answer what the reference answers to the same request with the accepted token;
 * - a CORS preflight: the mock grants it (204); the reference has no CORS and is not asked.
 */
function freedomOf(request: WireRequest, token: string): Freedom | undefined {
  if (isPreflight(request.method, request.headers)) return 'cors-preflight';
  const authorization = request.headers.authorization;
  if (bearerRefusal(authorization, acceptAnyToken) === undefined && bearerRefusal(authorization, acceptTokens([token])) !== undefined) return 'any-token';
  return undefined;
}

/** The status the mock must answer: the reference's, asked the request as the freedom reads it. */
async function expectedStatus(request: WireRequest, freedom: Freedom | undefined, targets: Targets): Promise<number> {
  switch (freedom) {
    case 'cors-preflight':
      return 204;
    case 'any-token':
      return (await send(targets.referenceUrl, { ...request, headers: { ...request.headers, authorization: `Bearer ${targets.token}` } })).status;
    case undefined:
      return (await send(targets.referenceUrl, request)).status;
  }
}

export async function compare(source: RequestSource, targets: Targets): Promise<Comparison> {
  const disagreements: Disagreement[] = [];
  let compared = 0;
  for await (const { description, request } of source()) {
    const freedom = freedomOf(request, targets.token);
    const expected = await expectedStatus(request, freedom, targets);
    const mock = (await send(targets.mockUrl, request)).status;
    compared++;
    if (mock !== expected) disagreements.push({ description, request: show(request), expected, mock, ...(freedom === undefined ? {} : { freedom }) });
  }
  return { compared, disagreements };
}

function show(request: WireRequest): string {
  if (request.raw) return `raw bytes: ${JSON.stringify(Buffer.from(request.raw).toString('latin1').slice(0, 120))}`;
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${value.slice(0, 80)}`);
  const body = request.body === undefined ? '' : ` ${JSON.stringify(Buffer.from(request.body).toString('utf8').slice(0, 120))}${request.body.length > 120 ? `… (${request.body.length} bytes)` : ''}`;
  return `${request.method} ${request.path.slice(0, 120)} [${headers.join('; ')}]${request.chunked === true ? ' chunked' : ''}${body}`;
}
