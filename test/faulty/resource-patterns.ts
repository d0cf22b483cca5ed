/**
 * Implementations of the example garden journal (examples/contracts/garden-journal.yaml: keys the
 * server assigns, nested beds, PATCH, envelope lists) for the stateful phase's resource walks: each
 * faulty one the reference with one defect, caught by the one check that names it. Operations are
 * told apart by the contract's operationIds and the pattern's key property, never by a path.
 */
import { randomUUID } from 'node:crypto';
import type { CheckName } from '../../fuzz/index.js';
import { isJsonObject, resourcePatterns, type Contract, type JsonValue } from '../../src/openapi/index.js';
import type { App, AppRequest, AppResponse } from '../../src/reference/index.js';
import type { Fault } from '../support/servers.js';
import { errorResponse, forward, objectBodyOf, responseObject, withBody } from './helpers.js';

export interface PatternImplementation {
  readonly name: string;
  readonly defect: string;
  readonly caughtBy: CheckName;
  /** Other checks its defect breaks, each with its reason: the run must break no other. */
  readonly touches?: Partial<Record<CheckName, string>>;
  fault(contract: Contract): Fault;
}

function operationOf(contract: Contract, request: AppRequest): string | undefined {
  return contract.findOperation(request.method, request.url.split('?', 1)[0] ?? request.url)?.operationId;
}

function on(operationId: string, change: (request: AppRequest, correct: () => AppResponse, app: App, contract: Contract) => AppResponse): (contract: Contract) => Fault {
  return (contract) => (request, correct, app) => (operationIds(contract, request, operationId) ? change(request, correct, app, contract) : correct());
}

function operationIds(contract: Contract, request: AppRequest, operationId: string): boolean {
  return operationOf(contract, request) === operationId;
}

/** The key property of the pattern whose create is `operationId`. */
function keyOf(contract: Contract, operationId: string): string {
  return resourcePatterns(contract).find((p) => p.operations.get('create')?.operationId === operationId)?.keyProperty ?? 'id';
}

export const PATTERN_IMPLEMENTATIONS: readonly PatternImplementation[] = [
  {
    name: 'patch-replaces',
    defect: 'PATCH replaces the garden with the patch: members the patch does not name are dropped (those the item requires kept)',
    caughtBy: 'update-visible',
    fault: on('updateGarden', (request, _correct, app, contract) => {
      const patch = objectBodyOf(request) ?? {};
      const update = contract.operationById('updateGarden');
      const read = contract.operationById('getGarden')?.response(200)?.schema;
      const required = read === undefined ? new Set<string>() : contract.shapeOf(read).required;
      const members = [...(update?.requestBody?.shape.properties.keys() ?? [])];
      // Every optional member the patch leaves out removed (a merge patch's null), as a replace would.
      const dropped = Object.fromEntries(members.filter((name) => !Object.hasOwn(patch, name) && !required.has(name)).map((name): [string, JsonValue] => [name, null]));
      return forward(app, request, { headers: { 'content-type': 'application/merge-patch+json' }, body: { ...dropped, ...patch } });
    }),
  },
  {
    name: 'key-changes-on-read',
    defect: 'the read answers the garden under a new id each time (an id made per representation, not stored)',
    caughtBy: 'resource-available',
    touches: { 'replacement-visible': 'the read after a replace shows the new id too', 'update-visible': 'the read after an update shows the new id too' },
    fault: on('getGarden', (_request, correct, _app, contract) => {
      const answer = correct();
      const garden = responseObject(answer);
      return answer.status !== 200 || garden === undefined ? answer : withBody(answer, { ...garden, [keyOf(contract, 'createGarden')]: randomUUID() });
    }),
  },
  {
    name: 'list-cached',
    defect: 'the list answers the page it answered first, from a cache no create clears: gardens created since are not listed',
    caughtBy: 'listed-after-create',
    fault: (contract) => {
      let cached: AppResponse | undefined;
      return on('listGardens', (_request, correct) => {
        const answer = correct();
        if (answer.status !== 200) return answer;
        cached ??= answer;
        return cached;
      })(contract);
    },
  },
  {
    name: 'read-only-key-taken',
    defect: 'a create that sends an id answers with it instead of the id the server gives (the server trusts the readOnly property)',
    caughtBy: 'server-assigns-key',
    fault: on('createGarden', (request, correct, _app, contract) => {
      const sent = objectBodyOf(request);
      const key = keyOf(contract, 'createGarden');
      const answer = correct();
      const garden = responseObject(answer);
      if (sent === undefined || !Object.hasOwn(sent, key) || garden === undefined || answer.status >= 300 || !isJsonObject(garden)) return answer;
      return withBody(answer, { ...garden, [key]: sent[key] as JsonValue });
    }),
  },
];

/**
 * Implementations whose defect is in how a PATCH is judged, for the coverage and random phases
 * (the PATCHes of the valid kinds, to an item that may or may not be stored).
 */
export const PATCH_IMPLEMENTATIONS: readonly PatternImplementation[] = [
  {
    name: 'patch-needs-whole-item',
    defect: "a PATCH is validated as a whole new item: one that leaves out a member the create's body requires is refused with 400, though the stored item keeps it",
    caughtBy: 'accepts-valid',
    fault: (contract) => (request, correct) => {
      const operation = contract.findOperation(request.method, request.url.split('?', 1)[0] ?? request.url);
      const collection = operation === undefined ? undefined : resourcePatterns(contract).find((p) => p.operations.get('update') === operation);
      const required = collection?.operations.get('create')?.requestBody?.shape.required ?? new Set<string>();
      const patch = objectBodyOf(request);
      const missing = [...required].find((name) => patch !== undefined && !Object.hasOwn(patch, name));
      return missing === undefined ? correct() : errorResponse(400, `${missing}: is required`);
    },
  },
];
