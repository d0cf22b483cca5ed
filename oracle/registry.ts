/**
 * The registry of checks: every check the engine runs, in the order reports list them. Adding a
 * check is one file in this folder and one line here; the CLI's summary and `--help`, the JSON and
 * JUnit reports and the docs' table (test/docs) all follow this list.
 */
import type { Contract } from '../src/openapi/index.js';
import type { CheckOptions, Finding, HttpOutcome, Profile, RequestCase, Severity } from './types.js';
import { acceptsValid } from './checks/accepts-valid.js';
import type { Check, CheckContext, ExchangeCheck, RunCheck, RunRecord } from './check.js';
import { contentCoding } from './checks/content-coding.js';
import { contentLength } from './checks/content-length.js';
import { credentialsFirst } from './checks/credentials-first.js';
import { degradation } from './checks/degradation.js';
import { echo } from './checks/echo.js';
import { jsonCharset } from './checks/json-charset.js';
import { methodSemantics } from './checks/method-semantics.js';
import { noByteOrderMark } from './checks/no-byte-order-mark.js';
import { noServerError } from './checks/no-server-error.js';
import { oneAnswerPerRequest } from './checks/one-answer-per-request.js';
import { rejectsInvalid } from './checks/rejects-invalid.js';
import { requiresAuth } from './checks/requires-auth.js';
import { responseTime } from './checks/response-time.js';
import { responseShape } from './checks/response-shape.js';
import { statusDeclared } from './checks/status-declared.js';
import { resourceAvailable } from './checks/resource-available.js';
import { deletedStaysDeleted } from './checks/deleted-stays-deleted.js';
import { replacementVisible } from './checks/replacement-visible.js';
import { updateVisible } from './checks/update-visible.js';
import { listedAfterCreate } from './checks/listed-after-create.js';
import { serverAssignsKey } from './checks/server-assigns-key.js';
import { messageFraming } from './checks/message-framing.js';

export const CHECKS = [
  responseShape,
  statusDeclared,
  acceptsValid,
  rejectsInvalid,
  requiresAuth,
  credentialsFirst,
  noServerError,
  echo,
  noByteOrderMark,
  jsonCharset,
  contentCoding,
  contentLength,
  oneAnswerPerRequest,
  responseTime,
  degradation,
  resourceAvailable,
  deletedStaysDeleted,
  replacementVisible,
  updateVisible,
  listedAfterCreate,
  serverAssignsKey,
  messageFraming,
  methodSemantics,
] as const satisfies readonly Check[];

export type CheckName = (typeof CHECKS)[number]['name'];
/** The checks of the stateful phase (run/stateful-plan.ts): a run without the phase (a contract without links or reads) exercises none of them. */
export const STATEFUL_CHECK_NAMES: readonly CheckName[] = [resourceAvailable.name, deletedStaysDeleted.name, replacementVisible.name, updateVisible.name, listedAfterCreate.name, serverAssignsKey.name];
export const CHECK_NAMES: readonly CheckName[] = CHECKS.map((check) => check.name);

export const EXCHANGE_CHECKS: readonly ExchangeCheck<CheckName>[] = (CHECKS as readonly Check<CheckName>[]).filter((check): check is ExchangeCheck<CheckName> => check.scope === 'exchange');
export const RUN_CHECKS: readonly RunCheck<CheckName>[] = (CHECKS as readonly Check<CheckName>[]).filter((check): check is RunCheck<CheckName> => check.scope === 'run');

export function isCheckName(name: string): name is CheckName {
  return (CHECK_NAMES as readonly string[]).includes(name);
}

export function checkNamed(name: CheckName): Check<CheckName> {
  const check = (CHECKS as readonly Check<CheckName>[]).find((c) => c.name === name);
  if (!check) throw new RangeError(`no check named ${name}`);
  return check;
}

function contextOf(contract: Contract, options: CheckOptions): CheckContext {
  return { contract, profile: options.profile ?? 'reference' };
}

/** Whether a check has anything to say about an exchange: the requests a report counts for it. */
export function checkApplies(name: CheckName, request: RequestCase, outcome: HttpOutcome, contract: Contract, options: CheckOptions = {}): boolean {
  const check = checkNamed(name);
  const context = contextOf(contract, options);
  return check.scope === 'exchange' && runsUnder(check, context.profile) && check.applies(request, outcome, context);
}

function runsUnder(check: Check, profile: Profile): boolean {
  return check.skippedUnder?.[profile] === undefined;
}

/** One exchange check on one exchange: its findings as data. */
export function judgeExchange(name: CheckName, request: RequestCase, outcome: HttpOutcome, contract: Contract, options: CheckOptions = {}): Finding[] {
  const check = checkNamed(name);
  const context = contextOf(contract, options);
  if (check.scope !== 'exchange' || !runsUnder(check, context.profile) || !check.applies(request, outcome, context)) return [];
  return check.judge(request, outcome, context).map((judgement) => ({ check: name, ...judgement }));
}

/** The checks that applied to each outcome as `runChecks` judged it, for `applicableChecks` to count without asking every check again. */
const applied = new WeakMap<HttpOutcome, { readonly request: RequestCase; readonly context: CheckContext; readonly names: readonly CheckName[] }>();

/** Every exchange check on one exchange. */
export function runChecks(request: RequestCase, outcome: HttpOutcome, contract: Contract, options: CheckOptions = {}): Finding[] {
  const context = contextOf(contract, options);
  const findings: Finding[] = [];
  const names: CheckName[] = [];
  for (const check of EXCHANGE_CHECKS) {
    if (!runsUnder(check, context.profile) || !check.applies(request, outcome, context)) continue;
    names.push(check.name);
    for (const judgement of check.judge(request, outcome, context)) findings.push({ check: check.name, ...judgement });
  }
  applied.set(outcome, { request, context, names });
  return findings;
}

/** Every exchange check that applies to an exchange, by name (for counting): as `runChecks` found them when it judged this very exchange. */
export function applicableChecks(request: RequestCase, outcome: HttpOutcome, contract: Contract, options: CheckOptions = {}): CheckName[] {
  const context = contextOf(contract, options);
  const known = applied.get(outcome);
  if (known !== undefined && known.request === request && known.context.contract === contract && known.context.profile === context.profile) return [...known.names];
  return EXCHANGE_CHECKS.filter((check) => runsUnder(check, context.profile) && check.applies(request, outcome, context)).map((check) => check.name);
}

/** An exchange as a replay sees it: the request, what came back and the exchange checks' findings. */
export interface JudgedExchange {
  readonly request: RequestCase;
  readonly outcome: HttpOutcome;
  readonly findings: readonly Finding[];
}

/** How the runner replays a check's finding to shrink or confirm it: the check's kind says, the runner does not ask. */
export interface Replay {
  /** Whether an exchange shows the finding again. */
  shows(exchange: JudgedExchange): boolean;
  /** The finding's message for an exchange that showed it again (a shrunk request is not the one the run saw). */
  explain(exchange: JudgedExchange): string | undefined;
  /** Replays in a row that must all show it: two for a check confirmed by replay (a loaded machine stalls one answer in a thousand, the same request twice in a row hardly). */
  readonly times: number;
  /** Whether a replay that does not show it waits for late bytes first (bytes after an answer are judged when they come). */
  readonly waitsForLateBytes: boolean;
  /** Whether a finding no replay alone showed again is dropped: a moment of the run, not a finding. */
  readonly dropsUnconfirmed: boolean;
}

export function replayOf(name: CheckName, severity: Severity, run: RunRecord, context: CheckContext): Replay {
  const check = checkNamed(name);
  if (check.scope === 'exchange') {
    const finding = (exchange: JudgedExchange): Finding | undefined => exchange.findings.find((f) => f.check === name && f.severity === severity);
    return { shows: (exchange) => finding(exchange) !== undefined, explain: (exchange) => finding(exchange)?.message, times: 1, waitsForLateBytes: true, dropsUnconfirmed: false };
  }
  const confirmed = check.confirmedByReplay === true;
  return {
    shows: (exchange) => check.reproduces?.(exchange.request, exchange.outcome, run, context) === true,
    explain: (exchange) => check.explain?.(exchange.request, exchange.outcome, run, context),
    times: confirmed ? 2 : 1,
    waitsForLateBytes: false,
    dropsUnconfirmed: confirmed,
  };
}

