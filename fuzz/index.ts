/**
 * The conformance engine of Plant Store Kit - the public entry point.
 *
 * Generators (fast-check arbitraries derived from openapi.yaml):
 * - `requestArbitrary(contract, { token, profile?, labels?, weights? })` → `fc.Arbitrary<RequestCase>`:
 *   whole requests (method, path, lower-case headers, raw body bytes) labelled `valid`,
 *   `invalid-body`, `malformed-json`, `bad-media-type` or `bad-auth`, each with a `variant` saying
 *   what is special about it, its `credentials` kind, and `setup` requests to send first (a repeated id).
 * - `SchemaArbitraries` (valid and invalid values for any schema of the contract), `validBodyArbitrary`.
 * - `writeJson`/`spellInteger`: the JSON text writer behind them (ids digit for digit, `1e2`, escapes).
 *
 * Checks (pure: `(request, outcome, contract, { profile }?) => Violation[]`):
 * - `CHECKS[name]` for the seven names in `CHECK_NAMES`, `runChecks` for all of them,
 *   `checkApplies` for whether a check has anything to say about an exchange.
 *
 * Runner:
 * - `runConformance({ baseUrl, token, profile, runs, seed, timeoutMs, concurrency, onProgress })`
 *   → `Promise<Report>`: per-check requests and violations, failures shrunk to a minimal request
 *   (with a curl command, the response, the seed and fast-check path), requests per second.
 *   Throws `TargetUnreachableError` when the target refuses connections, TypeError/RangeError on bad options.
 * - `createHttpClient(baseUrl, options)` → `{ send(request): Promise<HttpOutcome>, close() }`: the
 *   client the runner uses (keep-alive, timeouts, size cap; never throws).
 *
 * Reports: `formatReport` (text), `toJUnit` (JUnit XML), `toCurl` (one request as a shell command);
 * a Report is plain data, so JSON.stringify(report) is the JSON report.
 */
export { CHECK_NAMES, CASE_LABELS } from './types.js';
export type { CaseLabel, CheckName, CheckOptions, Credentials, HttpOutcome, HttpRequest, Profile, RequestCase, TransportFailure, Violation } from './types.js';
export { acceptsValid, checkApplies, CHECKS, echo, essence, noServerError, rejectsInvalid, requiresAuth, responseShape, runChecks, sameJson, statusDeclared, type Check } from './checks.js';
export { DEFAULT_WEIGHTS, mediaTypeSpellings, requestArbitrary, validBodyArbitrary, type GeneratorOptions } from './generators.js';
export { anyJsonModel, EDGE_STRINGS, HOSTILE_KEYS, integerBounds, integerValue, LONG_STRING, SchemaArbitraries, type InvalidValue } from './schema-arbitraries.js';
export { INTEGER_SPELLINGS, LAYOUTS, spellInteger, STRING_STYLES, writeJson, writeString, type IntegerSpelling, type JsonMember, type JsonModel, type Layout, type StringStyle } from './json-text.js';
export { createHttpClient, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, parseBaseUrl, urlFor, type ClientOptions, type HttpClient } from './http-client.js';
export {
  DEFAULT_CONCURRENCY,
  DEFAULT_MAX_TIMEOUTS,
  DEFAULT_RUNS,
  DEFAULT_SHRINK_TIME_MS,
  randomSeed,
  runConformance,
  TargetUnreachableError,
  type CheckSummary,
  type ConformanceOptions,
  type Failure,
  type Progress,
  type Report,
} from './runner.js';
export { formatReport, replayCommand, reportedOutcome, reportedRequest, shellQuote, toCurl, toJUnit, type ReportedOutcome, type ReportedRequest } from './report.js';
