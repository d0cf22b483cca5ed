/**
 * The oracle of Plant Store Kit - its public face: what a conforming answer is, for any request
 * the kit sends or sees. The conformance engine (fuzz/), the proxy (proxy/) and bench/ import it
 * here, never file by file; it imports nothing above src/openapi.
 *
 * - The words of an exchange (types.ts): RequestCase, HttpRequest, HttpOutcome, WireFacts, Finding.
 * - The checks (registry.ts, a file each in checks/, check.ts): `runChecks` judges one exchange and
 *   returns its findings as data; run checks judge a run as a whole.
 * - Classifying an observed request (classify.ts) and the walks along the contract's links
 *   (walks.ts, observed-links.ts), for the proxy and the stateful phase.
 * - What the checks read: credentials (credential-table.ts, challenge-grammar.ts), content codings
 *   (accept-encoding.ts, codings.ts), dates (imf-fixdate.ts), leniencies, statistics.
 * - Findings as JUnit XML (junit.ts), for conform's and the proxy's reports.
 */
export { PHASES, type CheckOptions, type Content, type Credentials, type DerivedSecret, type ExtraBytes, type Finding, type Framing, type HttpOutcome, type HttpRequest, type AnswerBinding, type LinkStep, type NeighbourRequest, type PartialResponse, type Phase, type Profile, type RequestCase, type RequestFraming, type ResponseOutcome, type Severity, type TransportFailure, type WireFacts } from './types.js';
export { applicableChecks, CHECK_NAMES, checkApplies, checkNamed, CHECKS, EXCHANGE_CHECKS, isCheckName, judgeExchange, replayOf, RUN_CHECKS, runChecks, STATEFUL_CHECK_NAMES, type CheckName, type JudgedExchange, type Replay } from './registry.js';
export { exchangeCheck, failure, runCheck, warning, type CanaryReading, type Check, type GrowthMeasure, type GrowthReading, type CheckContext, type ExchangeCheck, type Judgement, type ResponseTimes, type RunCheck, type RunJudgement, type RunRecord, type TimedExchange } from './check.js';
export { canaryTrend, GROWTH_MEASURES, growthTrend, MIN_READINGS, notJudgedReason, type CanaryTrend } from './checks/degradation.js';
export { DEFAULT_MAX_RESPONSE_TIME_MS, MEDIAN_FACTOR, responseTimeBound, type ResponseTimeBound } from './checks/response-time.js';
export { METHOD_TAG_PREFIX } from './checks/method-semantics.js';
export { classifyRequest, judgeObserved, interpretationsOf, type Classification, type ClassifyOptions, type ObservedJudgement } from './classify.js';
export { declaredPart, linkedValues, parameterText, walksOf, type LinkTarget, type Walk } from './walks.js';
export { openPatchResult, PATCH_RESULT_OPENNESS } from './patch-results.js';
export { isKeyValue, keyFromAnswer, listedIn, nextPage, resourceWalksOf, unresolvedReason, updatedResource, type ResourceWalk } from './resource-walks.js';
export { createLinkMemory, DEFAULT_MAX_REMEMBERED, type LinkMemory, type LinkTicket } from './observed-links.js';
export { BUCKET_RATIO, LatencyHistogram, mannKendall, median, round, theilSen, type HistogramBucket, type MannKendall } from './statistics.js';
export { challenges } from './challenges.js';
export { integerKey, integerKeyProperties } from './integer-key.js';
export { codePointsOf, decodeJson, sameJson } from './json-values.js';
export { closeDemanded, excerpt } from './messages.js';
export { mediaTypesNotChecked, operationMediaNotChecked, readVariantBody } from './media-values.js';
export { operationOf } from './declared.js';
export { LONE_SURROGATE_LENIENCY, PROTOTYPE_KEY_LENIENCY, UTF8_IN_STRING_LENIENCY } from './leniencies.js';
export { canonicalNumeral, canonicalSpelling, canonicalText, isOtherSpelling, PARAMETER_SPELLING_OPENNESS } from './parameter-spellings.js';
export { carriesWellFormedToken, CREDENTIAL_VARIANTS, credentialsByGrammar, queryEncoded, type CredentialVariant } from './credential-table.js';
export { acceptsCoding, codingList, codingName } from './accept-encoding.js';
export { DECODABLE_CODINGS, decodeCodings, DEFAULT_MAX_RESPONSE_BYTES } from './codings.js';
export { junitXml, xml, type JUnitCase, type JUnitGroup, type JUnitOutcome, type JUnitSuite } from './junit.js';
export { renderHttpMap } from './requirements/markdown.js';
export { coversSection, MAP_SECTIONS, type MapSection, type RowFile } from './requirements/sections.js';
export { isTested, REQUIREMENTS, type Judging, type Provocation, type Requirement, type Rfc, type TestedRequirement, type UntestableRequirement } from './requirements/index.js';
