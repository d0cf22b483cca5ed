/**
 * The battery's assertions can fail: run over a socket against the reference with one deliberate
 * defect (test/support/servers.ts, startFaulty), each defect must make some cases fail - and
 * the cases it makes fail must be the ones about that defect.
 */
import { Agent } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../src/openapi/index.js';
import type { AppResponse } from '../../src/reference/index.js';
import { expectAnswer } from '../support/expect-answer.js';
import { startFaulty, TEST_TOKEN, type Fault } from '../support/servers.js';
import { ALL_CASES } from './battery.js';
import { runnable, sendCase } from './run.js';
import { expectationFor } from './targets.js';

const withBody = (answer: AppResponse, body: string): AppResponse => ({ ...answer, body });

/** Each fault, a case that must catch it, and which answers it touches (only those cases may fail). */
const FAULTS: readonly (readonly [name: string, fault: Fault, sentinel: string, touches: 'plants' | 'errors'])[] = [
  [
    'ids pass through a double',
    (_request, correct) => {
      const answer = correct();
      return answer.status === 200 ? withBody(answer, JSON.stringify(JSON.parse(answer.body))) : answer;
    },
    'id 2^53+1 comes back digit for digit',
    'plants',
  ],
  [
    'every property sent is echoed',
    (request, correct) => {
      const answer = correct();
      if (answer.status !== 200 || request.body === undefined) return answer;
      return withBody(answer, stringifyJson({ ...(parseJson(Buffer.from(request.body).toString('utf8')) as object), ...(parseJson(answer.body) as object) }));
    },
    'an extra property is accepted and not echoed',
    'plants',
  ],
  [
    '401 without WWW-Authenticate',
    (_request, correct) => {
      const answer = correct();
      return answer.status === 401 ? { ...answer, headers: { 'content-type': 'application/json' } } : answer;
    },
    'a wrong token -> 401',
    'errors',
  ],
  [
    'a schema violation answered 422',
    (_request, correct) => {
      const answer = correct();
      return answer.code === 'invalid_body' ? { ...answer, status: 422, body: answer.body.replace('"error":400', '"error":422') } : answer;
    },
    'no name -> 400 naming name',
    'errors',
  ],
  [
    'Errors as problem+json',
    (_request, correct) => {
      const answer = correct();
      return answer.status === 200 ? answer : { ...answer, headers: { ...answer.headers, 'content-type': 'application/problem+json' } };
    },
    'malformed JSON: truncated -> 400',
    'errors',
  ],
  [
    'an Error whose message names nothing',
    (_request, correct) => {
      const answer = correct();
      return answer.status === 200 ? answer : withBody(answer, JSON.stringify({ error: answer.status, message: 'Bad Request' }));
    },
    'no id -> 400 naming id',
    'errors',
  ],
  [
    'a media type other than JSON accepted',
    (request, correct, app) => {
      const answer = correct();
      return answer.code === 'unsupported_media_type' ? app.request({ ...request, headers: { ...request.headers, 'content-type': 'application/json' } }) : answer;
    },
    'text/plain -> 400 naming content-type',
    'errors',
  ],
];

describe('the battery catches single faults', () => {
  const agent = new Agent({ keepAlive: true });
  afterAll(() => {
    agent.destroy();
  });

  // The megabyte bodies add time and no fault of these; raw bytes meet node:http's own parser
  // in a faulty server, not the reference's socket layer.
  const cases = runnable(ALL_CASES, 'socket').filter((c) => c.request.raw === undefined && (c.request.body?.length ?? 0) < 64 * 1024);
  const failures = async (fault: Fault): Promise<string[]> => {
    const server = await startFaulty(fault);
    try {
      const failed: string[] = [];
      for (const c of cases) {
        try {
          expectAnswer(await sendCase(server.url, c, agent), expectationFor(c, 'reference', TEST_TOKEN), c.request);
        } catch {
          failed.push(c.name);
        }
      }
      return failed;
    } finally {
      await server.close();
    }
  };

  it('with no fault, every case holds (the baseline)', async () => {
    expect(await failures((_request, correct) => correct())).toEqual([]);
  });

  it.each(FAULTS.map(([name, fault, sentinel, touches]) => ({ name, fault, sentinel, touches })))('$name: caught by $sentinel', async ({ fault, sentinel, touches }) => {
    const failed = await failures(fault);
    expect(failed).toContain(sentinel);
    // The assertions single out the cases the fault touches rather than failing at random.
    const untouched = cases.filter((c) => (c.expect.status === 200) === (touches === 'errors')).map((c) => c.name);
    expect(failed.filter((name) => untouched.includes(name))).toEqual([]);
  });
});
