/**
 * Implementations of the example full store (examples/contracts/plant-store-full.yaml) with one
 * defect in an operation other than the create, each naming the check that must catch it; and
 * correct-but-unusual ones that must pass. Each is the reference of that contract with its answers
 * changed; which operation a request is for comes from the contract's collection/item pattern
 * (resourcePatterns), not from a path written here.
 */
import type { ServerResponse } from 'node:http';
import type { CheckName } from '../../fuzz/index.js';
import { parseJson, resourcePatterns, type JsonValue, type ResourceRole } from '../../src/openapi/index.js';
import type { AppRequest, AppResponse } from '../../src/reference/index.js';
import { fullStore } from '../support/contracts.js';
import { startFaulty, TEST_TOKEN, type Fault } from '../support/servers.js';
import { errorResponse, withBody } from './helpers.js';

const contract = fullStore();
const pattern = resourcePatterns(contract)[0];

/** The role of the operation a request is for, if it is one of the pattern's. */
function roleOf(request: AppRequest): ResourceRole | undefined {
  const operation = contract.findOperation(request.method, request.url.split('?', 1)[0] ?? request.url);
  for (const [role, candidate] of pattern?.operations ?? []) if (candidate === operation) return role;
  return undefined;
}

/** A path segment percent-decoded, or undefined where it is not valid percent-encoding (decodeURIComponent's URIError). */
function decodedSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function isHead(request: AppRequest): boolean {
  return request.method === 'HEAD';
}

export interface OperationImplementation {
  readonly name: string;
  readonly defect?: string;
  /** The check that must catch it; absent for a correct-but-unusual one, which must pass. */
  readonly caughtBy?: CheckName;
  /** Where given: the other checks its defect also breaks; a default run must break no other. */
  readonly touches?: readonly CheckName[];
  readonly fault: Fault;
}

/** The answer with its body changed, ids kept exact (lossless JSON). */
const withJson = (response: AppResponse, change: (value: JsonValue) => JsonValue): AppResponse => withBody(response, change(parseJson(response.body)));

export const OPERATION_FAULTS: readonly OperationImplementation[] = [
  {
    name: 'read-500-on-bad-id',
    defect: 'a read whose path parameter is not an integer crashes the handler (500)',
    caughtBy: 'no-server-error',
    touches: ['status-declared'],
    fault: (request, correct) => {
      const answer = correct();
      return roleOf(request) === 'read' && answer.status === 400 ? { status: 500, headers: { 'content-type': 'application/json' }, body: '{"error":500,"message":"NumberFormatException"}' } : answer;
    },
  },
  {
    name: 'open-reads',
    defect: 'reads and deletes forget the authentication middleware: any request is served',
    caughtBy: 'requires-auth',
    fault: (request, _correct, app) => {
      const role = roleOf(request);
      if (role !== 'read' && role !== 'remove') return app.request(request);
      return app.request({ ...request, headers: { ...request.headers, authorization: `Bearer ${TEST_TOKEN}` } });
    },
  },
  {
    name: 'list-wrapped',
    defect: 'the list answers {"plants": [...]} instead of the array the contract declares',
    caughtBy: 'response-shape',
    fault: (request, correct) => {
      const answer = correct();
      return roleOf(request) === 'list' && answer.status === 200 ? withJson(answer, (items) => ({ plants: items })) : answer;
    },
  },
  {
    name: 'no-allow-on-405',
    defect: 'a 405 without the Allow header',
    caughtBy: 'method-semantics',
    fault: (_request, correct) => {
      const answer = correct();
      if (answer.status !== 405) return answer;
      const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => name.toLowerCase() !== 'allow'));
      return { ...answer, headers };
    },
  },
  {
    name: 'head-with-body',
    defect: 'HEAD is answered with the body of the GET',
    caughtBy: 'method-semantics',
    // The content written after the head is bytes no framing accounts for (RFC 9110, section 9.3.2: a HEAD answer ends with its head).
    touches: ['one-answer-per-request'],
    fault: (request, _correct, app) => {
      if (!isHead(request)) return app.request(request);
      const answer = app.request({ ...request, method: 'GET' });
      // Written by hand: node:http leaves a HEAD answer's body out.
      return (res: ServerResponse) => {
        const head = [`HTTP/1.1 ${answer.status} X`, 'content-type: application/json', `content-length: ${Buffer.byteLength(answer.body)}`, 'connection: close', '', ''].join('\r\n');
        res.socket?.end(head + answer.body);
      };
    },
  },
];

export const OPERATION_UNUSUAL: readonly OperationImplementation[] = [
  {
    name: 'reads-with-extra-properties',
    fault: (request, correct) => {
      const answer = correct();
      return (roleOf(request) === 'read' || roleOf(request) === 'list') && answer.status === 200 ? withJson(answer, (value) => (Array.isArray(value) ? value.map((item) => ({ ...(item as object), since: '2020' })) : { ...(value as object), since: '2020' })) : answer;
    },
  },
  {
    name: 'list-newest-first',
    fault: (request, correct) => {
      const answer = correct();
      return roleOf(request) === 'list' && answer.status === 200 ? withJson(answer, (value) => (Array.isArray(value) ? [...value].reverse() : value)) : answer;
    },
  },
  {
    // Spring's Long.parseLong, Python's int(): an optional sign, decimal digits, leading zeros
    // allowed; anything else (1.0, 1e2) is no integer, refused with the declared 400 - after the
    // credentials, as a security filter runs before the path is converted.
    name: 'integer-path-read-as-text',
    fault: (request, correct, app) => {
      const role = roleOf(request);
      const item = role === 'read' || role === 'replace' || role === 'remove' ? /^(.*\/)([^/?]*)(\?.*)?$/.exec(request.url) : null;
      const answer = correct();
      if (item === null || answer.status === 401) return answer;
      const [, head = '', segment = '', query = ''] = item;
      // A framework refuses a malformed percent-escape before any converter runs (Spring, Starlette: 400).
      const text = decodedSegment(segment);
      if (text === undefined) return errorResponse(400, `path parameter: "${segment}" is not valid percent-encoding`);
      if (!/^[+-]?\d+$/.test(text)) return errorResponse(400, `path parameter: "${text}" is not an integer`);
      return app.request({ ...request, url: `${head}${BigInt(text).toString()}${query}` });
    },
  },
  {
    name: 'head-answered-like-get',
    // The GET's answer, head and all; node:http leaves its body out for a HEAD.
    fault: (request, _correct, app) => app.request(isHead(request) ? { ...request, method: 'GET' } : request),
  },
];

/**
 * The store holds 50 plants at most (the oldest forgotten first, decision 2): a default run's
 * capacity phase stores 5000 and its random phase some with long names, so that a list of them
 * all is over the engine's limit for an answer (1 MiB: some 1.3 MB, a no-server-error finding,
 * though the contract sets the list no bound), and one of the last 200 near it (0.8 MB, which the
 * implementations that rewrite the list parse and write again).
 */
const MAX_ENTRIES = 50;

export function startOperationImplementation(implementation: OperationImplementation): ReturnType<typeof startFaulty> {
  return startFaulty(implementation.fault, { contract, maxEntries: MAX_ENTRIES });
}
