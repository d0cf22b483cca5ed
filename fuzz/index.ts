/**
 * The conformance engine of Plant Store Kit - the public entry point.
 *
 * The rooms, each importing only the ones above it: wire/, generation/, run/, reports/, over the
 * oracle (oracle/index.ts: the words of an exchange, the checks), whose names the engine's users
 * read here too (docs/DESIGN.md draws them). The proxy imports the oracle, never this face (it
 * would reach the runner); the command line reads defaults.ts at start-up, not this face.
 *
 * Requests (generation/kinds/, fast-check arbitraries and deterministic lists derived from openapi.yaml):
 * - `KINDS` the registry of request kinds (valid, invalid-body, malformed-json, bad-media-type,
 *   bad-auth, …), each with a random generator and a coverage list;
 * - `requestArbitrary(contract, { token, profile?, kinds?, weights? })` → `fc.Arbitrary<RequestCase>`
 *   for the random phase; `coverageCases(contract, options)` → the coverage phase's requests. Each
 *   request has its `kind`, a `variant` saying what is special about it, its `content` (valid or
 *   invalid) and `credentials` kind, and `setup` requests to send first (a repeated id).
 * - `SchemaArbitraries` (valid, plain and invalid values for any schema of the contract).
 * - `writeJson`/`spellInteger`: the JSON text writer behind them (ids digit for digit, `1e2`, escapes).
 *
 * Checks (the oracle's registry `CHECKS`): exchange checks are pure functions of a request, what
 * came back and the contract; run checks judge the run as a whole. `runChecks` runs every exchange
 * check on one exchange and returns its findings (check, severity, message) as data.
 *
 * Runner: `runConformance(options)` → `Promise<Report>`: the coverage and random phases, per-check
 * counts of failures and warnings, each check's first finding shrunk to a minimal request (with a
 * curl command, the response, the seed and fast-check path). Throws `TargetUnreachableError` when
 * the target refuses connections, TypeError/RangeError on bad options.
 *
 * Reports: `formatReport` (text), `toJUnit` (JUnit XML), `toCurl` (one request as a shell command);
 * a Report is plain data, so JSON.stringify(report) is the JSON report.
 */
export { PHASES } from '../oracle/index.js';
export type { Content, CheckOptions, Credentials, Finding, Framing, HttpOutcome, HttpRequest, NeighbourRequest, Phase, Profile, RequestCase, Severity, TransportFailure, WireFacts } from '../oracle/index.js';
export { acceptsCoding, codingList } from '../oracle/index.js';
export { decodeCodings, DECODABLE_CODINGS } from '../oracle/index.js';
export {
  applicableChecks,
  canaryTrend,
  challenges,
  CHECK_NAMES,
  checkApplies,
  checkNamed,
  CHECKS,
  decodeJson,
  DEFAULT_MAX_RESPONSE_TIME_MS,
  EXCHANGE_CHECKS,
  exchangeCheck,
  failure,
  isCheckName,
  judgeExchange,
  MEDIAN_FACTOR,
  MIN_READINGS,
  responseTimeBound,
  RUN_CHECKS,
  runCheck,
  runChecks,
  sameJson,
  STATEFUL_CHECK_NAMES,
  warning,
  type CanaryReading,
  type CanaryTrend,
  type Check,
  type CheckContext,
  type CheckName,
  type ExchangeCheck,
  type ResponseTimeBound,
  type ResponseTimes,
  type RunCheck,
  type RunRecord,
  type RunJudgement,
  type TimedExchange,
  type Judgement,
} from '../oracle/index.js';
export {
  caseSpellings,
  coverageCases,
  KIND_NAMES,
  KINDS,
  mediaTypeSpellings,
  REQUEST_EXTRAS,
  requestArbitrary,
  requestKind,
  validBodyArbitrary,
  type AuthSpelling,
  type GeneratorOptions,
  type KindContext,
  type KindName,
  type RequestExtras,
  type RequestKind,
} from './generation/kinds/index.js';
export { SchemaArbitraries, type InvalidValue } from './generation/schema-arbitraries.js';
export { anyJsonModel } from './generation/values/json-values.js';
export { EDGE_STRINGS } from './generation/values/edge-strings.js';
export { HOSTILE_KEYS } from './generation/values/hostile-keys.js';
export { integerBounds } from './generation/values/integers.js';
export { integerValue } from './generation/values/integer-arbitrary.js';
export { LONG_STRING } from './generation/values/strings.js';
export { INTEGER_SPELLINGS, LAYOUTS, spellInteger, STRING_STYLES, writeJson, writeString, type IntegerSpelling, type JsonMember, type JsonModel, type Layout, type StringStyle } from './generation/json-text.js';
export { NothingToTestError } from './run/nothing-to-test.js';
export { createHttpClient, type HttpClientOptions, type HttpClient, type SendOptions } from './wire/http-client.js';
export { parseBaseUrl, urlFor } from '../src/http/index.js';
export { DEFAULT_CAPACITY, DEFAULT_CONCURRENCY, DEFAULT_CONFORM_TIMEOUT_MS, DEFAULT_RUNS } from './defaults.js';
export { CAPACITY_FLOOR, capacityCases, DEFAULT_CAPACITY_BUDGET_MS, FLOOR_LIMIT_MS, FRESH_EVERY, REPLACED_SHARE, type CapacityCases, type CapacityOptions } from './generation/capacity.js';
export { LatencyHistogram, mannKendall, median, theilSen, type HistogramBucket, type MannKendall } from '../oracle/index.js';
export { runRecordOf, RunTimeline, SLOWEST_KEPT, type LatencySummary, type LatencyWindow } from './run/timeline.js';
export {
  CANARY_SENDS,
  DEFAULT_CANARY_INTERVAL_MS,
  DEFAULT_MAX_TIMEOUTS,
  DEFAULT_SHRINK_TIME_MS,
  randomSeed,
  runConformance,
  TargetUnreachableError,
  type CapacitySummary,
  type CheckSummary,
  type ConformanceOptions,
  type DegradationSummary,
  type GrowthSummary,
  type PhaseSummary,
  type Progress,
  type Report,
  type ReportedFinding,
  type ResponseTimeSummary,
} from './run/runner.js';
export { toHtml } from './reports/html-report.js';
export { classifyRequest, judgeObserved, interpretationsOf, type Classification, type ClassifyOptions, type ObservedJudgement } from '../oracle/index.js';
export { junitXml, xml, type JUnitCase, type JUnitOutcome, type JUnitSuite } from '../oracle/index.js';
export { formatReport } from './reports/text.js';
export { toJUnit } from './reports/conform-junit.js';
export { replayCommand, reportedOutcome, reportedRequest, shellQuote, toCurl } from './run/reported.js';
export type { ReportedOutcome, ReportedRequest } from './run/record.js';
