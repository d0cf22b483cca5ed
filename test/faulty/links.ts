/**
 * Implementations of the example full store (examples/contracts/plant-store-full.yaml) for the
 * stateful phase: faulty ones, each with one defect of what its links promise and caught by the
 * one check of the phase it breaks, and correct-but-unusual ones that must pass. Each is the
 * reference with a transform, as in faults.ts; operations are told apart by the contract's
 * operationIds, never by a path or method written here.
 */
import type { CheckName } from '../../fuzz/index.js';
import type { Contract } from '../../src/openapi/index.js';
import type { App, AppRequest, AppResponse } from '../../src/reference/index.js';
import type { Fault } from '../support/servers.js';
import { errorResponse, responseObject, withBody } from './helpers.js';
import { stringifyJson } from '../../src/openapi/index.js';

export interface LinkImplementation {
  readonly name: string;
  readonly defect: string;
  /** The check that must catch it; undefined for a correct-but-unusual one. */
  readonly caughtBy?: CheckName;
  /** Other checks its defect breaks, each with its reason: the run must break no other. */
  readonly touches?: Partial<Record<CheckName, string>>;
  fault(contract: Contract): Fault;
}

/** The operationId a request is for, by the contract. */
function operationOf(contract: Contract, request: AppRequest): string | undefined {
  return contract.findOperation(request.method, request.url.split('?', 1)[0] ?? request.url)?.operationId;
}

/** A fault for one operation: the others are answered by the reference. */
function on(operationId: string, change: (request: AppRequest, correct: () => AppResponse, app: App) => AppResponse): (contract: Contract) => Fault {
  return (contract) => (request, correct, app) => (operationOf(contract, request) === operationId ? change(request, correct, app) : correct());
}

export const LINK_IMPLEMENTATIONS: readonly LinkImplementation[] = [
  {
    name: 'read-404-after-create',
    defect: 'the read looks the plant up in a cache the create does not fill: every read is 404',
    caughtBy: 'resource-available',
    touches: { 'replacement-visible': 'the read after a replace is 404 too' },
    fault: on('getPlant', () => errorResponse(404, 'no such plant')),
  },
  {
    name: 'delete-keeps-the-plant',
    defect: 'the delete answers 204 but removes nothing (a soft delete the reads ignore)',
    caughtBy: 'deleted-stays-deleted',
    fault: on('deletePlant', () => ({ status: 204, headers: {}, body: '' })),
  },
  {
    name: 'read-rounds-ids',
    defect: 'the read writes the plant with JSON.parse and JSON.stringify, so ids beyond 2^53 come back rounded',
    caughtBy: 'resource-available',
    touches: { 'response-shape': 'an id near 2^63 rounds to one beyond int64' },
    fault: on('getPlant', (_request, correct) => {
      const answer = correct();
      return answer.status === 200 ? { ...answer, body: JSON.stringify(JSON.parse(answer.body)) } : answer;
    }),
  },
  {
    name: 'replace-not-stored',
    defect: 'the replace answers the replacement but stores nothing: later reads answer the plant as created',
    caughtBy: 'replacement-visible',
    fault: (contract) => {
      const create = contract.operationById('addPlant');
      return on('replacePlant', (request, correct, app) => {
        const before = responseObject(app.request({ ...request, method: 'GET', body: '' }));
        const answer = correct();
        // The plant put back as it was, through the create (a repeated id replaces, decision 2).
        if (before !== undefined && create !== undefined) app.request({ method: create.method, url: create.path, headers: { ...request.headers, 'content-type': 'application/json' }, body: stringifyJson(before) });
        return answer;
      })(contract);
    },
  },
  {
    name: 'read-with-extra-properties',
    defect: 'reads add a property of the server\'s own (a creation time): the contract allows it',
    fault: on('getPlant', (_request, correct) => {
      const answer = correct();
      const plant = responseObject(answer);
      return plant === undefined || answer.status !== 200 ? answer : withBody(answer, { ...plant, createdAt: '2026-01-01T00:00:00Z' });
    }),
  },
  {
    name: 'delete-answered-200',
    defect: 'the delete answers 200 with an empty JSON object, not 204: RFC 9110 allows it, the example contract does not declare it',
    touches: { 'status-declared': 'the example contract declares 204 only', 'accepts-valid': 'the declared success is 204', 'response-shape': 'no body is declared for the delete' },
    fault: on('deletePlant', (_request, correct) => {
      const answer = correct();
      return answer.status === 204 ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' } : answer;
    }),
  },
];
