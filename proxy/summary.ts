/**
 * What the proxy saw, per check of the registry: the exchanges it judged, how many of them it
 * failed and warned, and the first example of each. The command line prints it on exit and
 * writes it as JSON (`--report`) and JUnit XML (`--junit`); `RunningProxy.summary()` gives it
 * to code. Plain data: `JSON.stringify(summary)` is the JSON report.
 */
import type { Contract } from '../src/openapi/index.js';
import { EXCHANGE_CHECKS, junitXml, type Finding, type JUnitCase } from '../oracle/index.js';
import type { ProxiedExchange } from './exchange.js';

/** One exchange that showed a finding, as the summary keeps it (credentials masked). */
export interface Example {
  /** The exchange's number (`ProxiedExchange.id`). */
  readonly exchange: number;
  readonly at: string;
  /** `POST /plants`, an `access_token` in the query masked. */
  readonly request: string;
  /** The upstream's status, or what went wrong instead (`timeout`, `reset`...). */
  readonly answer: number | string;
  readonly message: string;
}

export interface CheckTally {
  /** Exchanges the check judged (those it applies to under every interpretation of the request). */
  readonly judged: number;
  /** Exchanges it failed. */
  readonly failures: number;
  /** Exchanges it only warned about. */
  readonly warnings: number;
  readonly firstFailure?: Example;
  readonly firstWarning?: Example;
}

export interface ProxySummary {
  readonly upstream: string;
  readonly contract: { readonly title: string; readonly version: string };
  readonly startedAt: string;
  /** Since the proxy started. */
  readonly durationMs: number;
  /** Exchanges answered. */
  readonly exchanges: number;
  readonly judged: number;
  /** Exchanges passed through unjudged: the upstream unreachable, a body in a coding the proxy cannot undo. */
  readonly notJudged: number;
  /** Exchanges with a failure, and with a warning but no failure. */
  readonly failed: number;
  readonly warned: number;
  /** Every exchange check of the registry, in its order. */
  readonly checks: Readonly<Record<string, CheckTally>>;
  /** No exchange broke the contract. */
  readonly passed: boolean;
}

interface MutableTally {
  judged: number;
  failures: number;
  warnings: number;
  firstFailure?: Example;
  firstWarning?: Example;
}

/** A running tally the proxy records every exchange in. */
export function createTally(about: { readonly upstream: string; readonly contract: Contract }): { record(exchange: ProxiedExchange): void; summary(): ProxySummary } {
  const started = Date.now();
  const checks = new Map<string, MutableTally>(EXCHANGE_CHECKS.map((check) => [check.name, { judged: 0, failures: 0, warnings: 0 }]));
  let exchanges = 0;
  let notJudged = 0;
  let failed = 0;
  let warned = 0;
  const example = (exchange: ProxiedExchange, finding: Finding): Example => ({
    exchange: exchange.id,
    at: exchange.startedAt,
    request: `${exchange.request.method} ${exchange.request.target}`,
    answer: exchange.outcome.kind === 'response' ? exchange.outcome.status : exchange.outcome.failure,
    message: finding.message,
  });
  return {
    record(exchange) {
      exchanges++;
      if (exchange.notJudged !== undefined) {
        notJudged++;
        return;
      }
      if (exchange.findings.some((f) => f.severity === 'failure')) failed++;
      else if (exchange.findings.length > 0) warned++;
      for (const name of exchange.judgedBy) {
        const tally = checks.get(name);
        if (tally === undefined) continue;
        tally.judged++;
        const failure = exchange.findings.find((f) => f.check === name && f.severity === 'failure');
        const warning = exchange.findings.find((f) => f.check === name && f.severity === 'warning');
        if (failure !== undefined) {
          tally.failures++;
          tally.firstFailure ??= example(exchange, failure);
        } else if (warning !== undefined) {
          tally.warnings++;
          tally.firstWarning ??= example(exchange, warning);
        }
      }
    },
    summary: () => ({
      upstream: about.upstream,
      contract: { title: about.contract.title, version: about.contract.version },
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      exchanges,
      judged: exchanges - notJudged,
      notJudged,
      failed,
      warned,
      checks: Object.fromEntries([...checks].map(([name, tally]) => [name, { ...tally }])),
      passed: failed === 0,
    }),
  };
}

/** The summary as the command line prints it on exit. */
export function formatSummary(summary: ProxySummary): string {
  const names = Object.keys(summary.checks);
  const width = Math.max(...names.map((name) => name.length), 'check'.length);
  const row = (cells: readonly string[]): string => `  ${(cells[0] ?? '').padEnd(width)}  ${cells.slice(1).map((cell) => cell.padStart(8)).join('  ')}`;
  const lines = [
    `plant-store proxy: ${summary.exchanges} exchange${summary.exchanges === 1 ? '' : 's'} with ${summary.upstream} in ${(summary.durationMs / 1000).toFixed(1)} s; ` +
      `${summary.judged} judged${summary.notJudged > 0 ? `, ${summary.notJudged} passed through unjudged` : ''}; ` +
      `${summary.failed} broke the contract, ${summary.warned} only warned`,
    row(['check', 'judged', 'failures', 'warnings']),
    ...names.map((name) => {
      const tally = summary.checks[name] as CheckTally;
      return row([name, String(tally.judged), String(tally.failures), String(tally.warnings)]);
    }),
  ];
  for (const name of names) {
    const tally = summary.checks[name] as CheckTally;
    if (tally.firstFailure) lines.push(describeExample(name, 'first failure', tally.firstFailure));
    if (tally.firstWarning) lines.push(describeExample(name, 'first warning', tally.firstWarning));
  }
  lines.push(summary.passed ? 'Every judged answer kept the contract.' : 'The upstream broke the contract.');
  return lines.join('\n');
}

function describeExample(check: string, what: string, example: Example): string {
  return `${check}, ${what} (exchange ${example.exchange}, ${example.request} → ${example.answer}): ${example.message}`;
}

/**
 * JUnit XML (as `plant-store conform --junit` writes it): one test case per check; a check that
 * failed an exchange is a <failure> with its first example, a warning is printed in the case's
 * <system-out>, a check that judged nothing is <skipped>.
 */
export function summaryToJUnit(summary: ProxySummary): string {
  const cases = Object.entries(summary.checks).map(([name, tally]): JUnitCase => {
    if (tally.firstFailure) return { name, outcome: { kind: 'failure', message: tally.firstFailure.message, type: name, text: `${tally.failures} of ${tally.judged} exchanges; ${describeExample(name, 'first failure', tally.firstFailure)}` } };
    if (tally.firstWarning) return { name, outcome: { kind: 'output', text: `${tally.warnings} of ${tally.judged} exchanges; ${describeExample(name, 'first warning', tally.firstWarning)}` } };
    if (tally.judged === 0) return { name, outcome: { kind: 'skipped', message: 'no exchange was judged by this check' } };
    return { name, outcome: { kind: 'passed' } };
  });
  return junitXml({
    tool: 'proxy',
    name: `${summary.contract.title} ${summary.contract.version} through the proxy to ${summary.upstream}`,
    durationMs: summary.durationMs,
    properties: [
      ['exchanges', summary.exchanges],
      ['judged', summary.judged],
      ['not-judged', summary.notJudged],
    ],
    cases,
  });
}
