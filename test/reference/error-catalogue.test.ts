/**
 * The error catalogue against the contract, after Fastify's test/internals/errors.test.js: every
 * error an operation can answer is declared for it in openapi.yaml, the battery reaches every
 * error of the catalogue it can reach without a socket, and every status it observed for
 * POST /plants is declared - so a new error or a new status cannot slip in undeclared.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, type ErrorCode } from '../../src/http/index.js';
import { createApp } from '../../src/reference/index.js';
import { ALL_CASES, toAppRequest } from '../battery/battery.js';
import { runnable } from '../battery/run.js';
import { addPlant, contract, pathOf } from '../support/expect-answer.js';
import { TEST_TOKEN } from '../support/servers.js';

const codes = Object.keys(ERROR_CATALOGUE) as ErrorCode[];
const inScope = (scope: string) => codes.filter((code) => ERROR_CATALOGUE[code].scope === scope);

/** The battery once more, recording each answer's status and catalogue code. */
const observed = runnable(ALL_CASES, 'no-socket').map((c) => {
  const answer = createApp({ tokens: [TEST_TOKEN] }).request(toAppRequest(c));
  return { c, status: answer.status, code: answer.code, body: answer.body, forOperation: contract.findOperation(c.request.method, pathOf(c.request.path)) === addPlant };
});

describe('the error catalogue', () => {
  it.each(inScope('operation'))('%s has a status declared for POST /plants', (code) => {
    expect(addPlant.declaredStatuses).toContain(ERROR_CATALOGUE[code].status);
    expect(addPlant.response(ERROR_CATALOGUE[code].status)?.validateBody).toBeDefined();
  });

  it.each([...inScope('operation'), ...inScope('routing')])('%s is reached by the battery', (code) => {
    expect(observed.filter((o) => o.code === code).map((o) => o.c.name)).not.toEqual([]);
  });

  it('routing errors are for paths and methods the contract does not declare', () => {
    const routing: readonly string[] = inScope('routing');
    for (const o of observed.filter((o) => o.code !== undefined && routing.includes(o.code))) expect(o.forOperation, o.c.name).toBe(false);
  });

  it('every status observed for POST /plants is declared, and every declared status is observed', () => {
    const statuses = [...new Set(observed.filter((o) => o.forOperation).map((o) => o.status))].sort((a, b) => a - b);
    expect(statuses).toEqual(addPlant.declaredStatuses);
  });

  it('no case reaches the internal error', () => {
    expect(observed.filter((o) => o.status >= 500).map((o) => `${o.c.name}: ${o.body}`)).toEqual([]);
  });

  it('every code has a client-error status, or a server-error one for a defect or a shared store out of reach, and codes never share a meaning', () => {
    for (const code of codes) {
      const { status, scope }: { status: number; scope: string } = ERROR_CATALOGUE[code];
      expect(scope === 'internal' || scope === 'unavailable' ? status >= 500 : status >= 400 && status < 500, code).toBe(true);
    }
    expect(new Set(codes.map((code) => ERROR_CATALOGUE[code].about)).size).toBe(codes.length);
  });

  it('every Error message starts by naming the field or the problem', () => {
    for (const o of observed.filter((o) => o.status !== 200)) expect(JSON.parse(o.body) as { message: string }, o.c.name).toMatchObject({ message: expect.stringMatching(/^[a-zA-Z][\w .-]*: \S/) as unknown });
  });
});
