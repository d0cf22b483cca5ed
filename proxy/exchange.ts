/**
 * One exchange through the checking proxy, as it is told to `onExchange` (proxy.ts makes it; the
 * summary, summary.ts, counts it; the command line logs it with `describeExchange`).
 */
import type { Classification, Finding, HttpOutcome } from '../oracle/index.js';

/** One exchange through the proxy, as it is told to `onExchange`. */
export interface ProxiedExchange {
  /** Numbered from 1 in the order requests arrived. */
  readonly id: number;
  readonly startedAt: string;
  /** From the request's arrival to the answer's end at the proxy (ms). */
  readonly durationMs: number;
  readonly request: {
    readonly method: string;
    /** The request target as the client sent it, secret-named query parameters (an `access_token`) masked (src/http/secrets.ts). */
    readonly target: string;
    /** End-to-end fields, lower-case names, repeated ones joined; secrets masked by the kit's one policy (`Bearer ***`, `session=***`). */
    readonly headers: Readonly<Record<string, string>>;
    /** The body as far as it was kept (at most JUDGED_BODY_BYTES). */
    readonly body: Uint8Array;
    readonly bodyBytes: number;
  };
  /** What the upstream answered (its body decoded from any content coding), or why it did not. */
  readonly outcome: HttpOutcome;
  /** The status the client got: the upstream's, a 502 (`errors`, or the upstream unreachable) or a 504. */
  readonly answered: number;
  readonly classification: Classification;
  /** Set when the exchange was not judged, with the reason (the upstream unreachable, a body in a coding the proxy cannot decode). */
  readonly notJudged?: string;
  /** The checks that judged it (empty when not judged). */
  readonly judgedBy: readonly string[];
  readonly findings: readonly Finding[];
}

/** The names of the checks among `findings` with a severity, in order, once each. */
export function checksWith(findings: readonly Finding[], severity: Finding['severity']): string[] {
  return [...new Set(findings.filter((f) => f.severity === severity).map((f) => f.check))];
}

/**
 * The log line of an exchange with findings, or passed through unjudged; undefined for one that
 * kept the contract. The path without its query string (an access_token may be there); the
 * messages are redacted already.
 */
export function describeExchange(exchange: ProxiedExchange): string | undefined {
  const { request, outcome } = exchange;
  const got = outcome.kind === 'response' ? String(outcome.status) : outcome.failure;
  const head = `${exchange.startedAt} ${request.method} ${request.target.split('?', 1)[0] ?? ''} ${got}${exchange.answered === (outcome.kind === 'response' ? outcome.status : -1) ? '' : ` (answered ${exchange.answered})`}`;
  if (exchange.notJudged !== undefined) return `${head} not judged: ${exchange.notJudged}`;
  if (exchange.findings.length === 0) return undefined;
  const failed = checksWith(exchange.findings, 'failure');
  const warned = checksWith(exchange.findings, 'warning').filter((name) => !failed.includes(name));
  const named = [...(failed.length > 0 ? [`violations: ${failed.join(', ')}`] : []), ...(warned.length > 0 ? [`warnings: ${warned.join(', ')}`] : [])].join('; ');
  const details = exchange.findings.map((finding) => `${finding.check}${finding.severity === 'warning' ? ' (warning)' : ''}: ${finding.message}`).join(' | ');
  return `${head} ${named} - ${details}`.replace(/[\r\n]+/g, ' ');
}
