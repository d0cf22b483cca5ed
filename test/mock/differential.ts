/**
 * The differential test's engine: the same requests go to the reference implementation and to
 * the mock, and their statuses must agree on every one (bodies may differ: the mock does not
 * store or echo), but for what the mock's freedoms allow (test/battery/targets.ts). The requests
 * come from a source that knows nothing of the comparison, so the battery can be swapped for
 * generated requests.
 */
import { freedomOf, type Freedom } from '../battery/targets.js';
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
  /** Requests whose `Prefer` the mock honours: the reference cannot say what the mock must answer. */
  readonly uncompared: string[];
}

export interface Targets {
  readonly referenceUrl: string;
  readonly mockUrl: string;
  /** The token the reference accepts. */
  readonly token: string;
}

/**
 * The status the mock must answer: the reference's, asked the request as the freedom reads it (a
 * preflight is granted; a token the reference does not know is the accepted one to the mock).
 */
async function expectedStatus(request: WireRequest, freedom: Exclude<Freedom, 'prefer'> | undefined, targets: Targets): Promise<number> {
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
  const uncompared: string[] = [];
  let compared = 0;
  for await (const { description, request } of source()) {
    const freedom = freedomOf(request, targets.token);
    if (freedom === 'prefer') {
      uncompared.push(description);
      continue;
    }
    const expected = await expectedStatus(request, freedom, targets);
    const mock = (await send(targets.mockUrl, request)).status;
    compared++;
    if (mock !== expected) disagreements.push({ description, request: show(request), expected, mock, ...(freedom === undefined ? {} : { freedom }) });
  }
  return { compared, disagreements, uncompared };
}

function show(request: WireRequest): string {
  if (request.raw) return `raw bytes: ${JSON.stringify(Buffer.from(request.raw).toString('latin1').slice(0, 120))}`;
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${value.slice(0, 80)}`);
  const body = request.body === undefined ? '' : ` ${JSON.stringify(Buffer.from(request.body).toString('utf8').slice(0, 120))}${request.body.length > 120 ? `… (${request.body.length} bytes)` : ''}`;
  return `${request.method} ${request.path.slice(0, 120)} [${headers.join('; ')}]${request.chunked === true ? ' chunked' : ''}${body}`;
}
