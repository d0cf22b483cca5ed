/**
 * plant-store-kit/msw on every example contract of the repository (issue 28, "Done when"): the
 * handlers take each one's document (bundled where it is split over files) and answer one
 * well-formed request per operation (test/support/operation-requests.ts) with a success from its
 * examples, and in the reference mode with a status the contract declares, never a 5xx.
 */
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plantStoreHandlers } from '../../msw/index.js';
import { openContract, type Contract } from '../../src/openapi/index.js';
import { exampleContractFiles } from '../support/contracts.js';
import { operationRequests, sendEach } from '../support/operation-requests.js';

/** The credential operation-requests.ts sends for each of the contract's security schemes, given to the reference mode. */
function credentialsOf(contract: Contract): Record<string, string> {
  const schemes = (contract.document.components as { securitySchemes?: Record<string, { type?: string; scheme?: string }> } | undefined)?.securitySchemes ?? {};
  return Object.fromEntries(Object.entries(schemes).map(([name, scheme]) => [name, scheme.type === 'apiKey' ? 'any-key' : scheme.scheme?.toLowerCase() === 'basic' ? 'user:password' : 'any-token']));
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const server = setupServer();

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => {
  server.close();
});

describe.each(exampleContractFiles().map((file) => [relative(ROOT, file), file]))('%s', (_name, file) => {
  it.each(['examples', 'reference'] as const)('in the %s mode, every operation is answered as declared', async (mode) => {
    const contract = await openContract(file);
    const baseUrl = `http://${mode}.${contract.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.test`;
    const handlers = plantStoreHandlers({ baseUrl, contract: structuredClone(contract.document), mode, ...(mode === 'reference' ? { tokens: ['any-token'], credentials: credentialsOf(contract) } : {}) });
    server.resetHandlers(...handlers.handlers);
    for (const answer of await sendEach(baseUrl, operationRequests(contract))) {
      const declared = contract.operations.find((operation) => `${operation.method} ${operation.operationId}` === answer.operation)?.declaredStatuses ?? [];
      expect(answer.status, `${answer.operation}: ${answer.body}`).toBeLessThan(500);
      if (mode === 'examples') expect(answer.status, `${answer.operation}: ${answer.body}`).toBeLessThan(300);
      else expect(declared, `${answer.operation}: ${answer.body}`).toContain(answer.status);
    }
  });
});
