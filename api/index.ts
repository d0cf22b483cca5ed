/**
 * The package's one entry point (`import { startMock } from 'plant-store-kit'`), documented in
 * docs/api.md. It re-exports, and adds nothing of its own: the kit's servers started as the command
 * line starts them (servers.ts), the conformance engine's run, the typed client and the contract.
 * Keep it small: every name here is a promise to the kit's users (a test checks that each is on
 * docs/api.md).
 */
import { defaultContractFile } from '../src/openapi/index.js';

// The servers, as `plant-store serve` and `plant-store mock` run them.
export { startMock, startReference, type JournaledServer, type ListenSettings, type StartedServer, type StartMockOptions, type StartReferenceOptions } from './servers.js';

// The request journal a server keeps, and assertions on it.
export { assertRequests, findRequests, RequestAssertionError, type Fault, type JournalAnswer, type JournalBody, type JournalEntry, type JournalFinding, type JournalRequest, type JournalSource, type JournalVerdict, type JsonPattern, type ProxyVerdict, type RequestMatcher, type Verdict } from '../src/http/index.js';

// The checking proxy, as `plant-store proxy` runs it.
export { startProxy, type JournaledProxy, type StartedProxy, type StartProxyOptions } from './servers.js';
export type { ProxiedExchange, ProxySummary } from '../proxy/index.js';

// Conformance testing, as `plant-store conform` runs it.
export { formatReport, runConformance, TargetUnreachableError, toHtml, type ConformanceOptions, type Report } from '../fuzz/index.js';

// The typed client of POST /plants.
export { createClient, createPlant, UnexpectedResponseError, type AnyResult, type ClientOptions, type CreatePlantResult, type CreatePlantStatus, type ErrorBody, type NewPlant, type OperationClient, type OperationInput, type OperationResult, type Plant } from '../contracts/index.js';

// The contract: openapi.yaml, its operations and validators, and JSON that keeps every digit.
export { loadContract, openContract, parseJson, stringifyJson, UnsupportedContractError, type BodyValidator, type Contract, type JsonValue, type OperationContract, type Validation, type ValidationIssue } from '../src/openapi/index.js';
export type { components, operations, paths } from '../contracts/index.js';

/** The absolute path of the kit's openapi.yaml (also `import.meta.resolve('plant-store-kit/openapi.yaml')`). */
export const contractFile: string = defaultContractFile();
