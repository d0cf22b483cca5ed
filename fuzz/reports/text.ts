/**
 * A run's findings for people and machines: requests as `curl` commands, a text summary, JUnit
 * XML for CI systems. The token never appears: commands read it from `$TOKEN`, reports show `<token>`.
 */
import { urlFor } from '../wire/http-client.js';
import { junitXml, type JUnitCase } from '../junit.js';
import { DEFAULT_CAPACITY } from '../capacity.js';
import { CHECKS, CHECK_NAMES, DEFAULT_MAX_RESPONSE_TIME_MS, type CheckName } from '../checks/index.js';
import type { Report, ReportedFinding } from '../run/runner.js';
import type { HttpOutcome, RequestCase } from '../types.js';

export interface ReportedRequest {
  readonly method: string;
  readonly url: string;
  readonly kind: string;
  readonly variant: string;
  readonly content: RequestCase['content'];
  readonly credentials: RequestCase['credentials'];
  /** Header values with the token replaced by `<token>` (and text made from it by its placeholder). */
  readonly headers: Readonly<Record<string, string>>;
  /** Field lines sent after `headers` (a second Authorization field), redacted the same way. */
  readonly extraLines?: readonly (readonly [string, string])[];
  /** The body as text, or in base64 when it is not valid UTF-8. */
  readonly body: string;
  readonly bodyEncoding: 'utf8' | 'base64';
  readonly bodyBytes: number;
}

export type ReportedOutcome =
  | { readonly kind: 'response'; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string; readonly bodyBytes: number; readonly durationMs: number }
  | { readonly kind: 'failure'; readonly failure: string; readonly message: string; readonly durationMs: number };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function utf8OrUndefined(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** What a request holds that reports hide: the token, and text made from it; the longest first, as one may hold the other. */
interface Secret {
  readonly text: string;
  readonly placeholder: string;
  readonly shell: string;
}

function secretsOf(request: RequestCase, token: string | undefined): Secret[] {
  const secrets: Secret[] = [];
  if (request.derived !== undefined && request.derived.text !== '') secrets.push(request.derived);
  if (token) secrets.push({ text: token, placeholder: '<token>', shell: '${TOKEN}' });
  return secrets.sort((a, b) => b.text.length - a.text.length);
}

/** The text cut at every secret: literal pieces, and the secrets found. */
function pieces(text: string, secrets: readonly Secret[]): (string | Secret)[] {
  const out: (string | Secret)[] = [];
  let rest = text;
  for (;;) {
    let found: { at: number; secret: Secret } | undefined;
    for (const secret of secrets) {
      const at = rest.indexOf(secret.text);
      if (at >= 0 && (found === undefined || at < found.at)) found = { at, secret };
    }
    if (found === undefined) break;
    if (found.at > 0) out.push(rest.slice(0, found.at));
    out.push(found.secret);
    rest = rest.slice(found.at + found.secret.text.length);
  }
  if (rest !== '') out.push(rest);
  return out;
}

function redact(value: string, secrets: readonly Secret[]): string {
  return pieces(value, secrets)
    .map((piece) => (typeof piece === 'string' ? piece : piece.placeholder))
    .join('');
}

export function reportedRequest(base: URL, request: RequestCase, token?: string): ReportedRequest {
  const text = utf8OrUndefined(request.body);
  const secrets = secretsOf(request, token);
  return {
    method: request.method,
    url: redact(urlFor(base, request.path).href, secrets),
    kind: request.kind,
    variant: request.variant,
    content: request.content,
    credentials: request.credentials,
    headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, redact(v, secrets)])),
    ...(request.extraLines === undefined ? {} : { extraLines: request.extraLines.map(([k, v]) => [k, redact(v, secrets)] as const) }),
    body: text ?? Buffer.from(request.body).toString('base64'),
    bodyEncoding: text === undefined ? 'base64' : 'utf8',
    bodyBytes: request.body.length,
  };
}

/** Response bodies are kept up to this many characters in reports. */
const MAX_BODY_CHARS = 4096;

export function reportedOutcome(outcome: HttpOutcome): ReportedOutcome {
  if (outcome.kind === 'failure') return { kind: 'failure', failure: outcome.failure, message: outcome.message, durationMs: outcome.durationMs };
  const text = Buffer.from(outcome.body).toString('utf8');
  return {
    kind: 'response',
    status: outcome.status,
    headers: outcome.headers,
    body: text.length > MAX_BODY_CHARS ? `${text.slice(0, MAX_BODY_CHARS)}…` : text,
    bodyBytes: outcome.body.length,
    durationMs: outcome.durationMs,
  };
}

/** POSIX shell single quotes. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * One shell word that gives `text` (one character a byte, as node:http writes a header), each
 * secret written as its shell expression of `$TOKEN`: single quotes for plain text, double quotes
 * around expressions, printf where there are bytes a terminal cannot type.
 */
function shellWord(text: string, secrets: readonly Secret[]): string {
  const parts = pieces(text, secrets);
  // Printable ASCII goes inside quotes as it is.
  const typeable = parts.every((part) => typeof part !== 'string' || /^[\x20-\x7e]*$/.test(part));
  if (typeable && parts.every((part) => typeof part === 'string')) return shellQuote(text);
  if (typeable) return `"${parts.map((part) => (typeof part === 'string' ? part.replace(/[\\"$`]/g, '\\$&') : part.shell)).join('')}"`;
  const format = parts.map((part) => (typeof part === 'string' ? printfFormat(Buffer.from(part, 'latin1'), false) : '%s')).join('');
  const args = parts.flatMap((part) => (typeof part === 'string' ? [] : [` "${part.shell}"`]));
  return `"$(printf '${format}'${args.join('')})"`;
}

/** A header for curl; an empty value is written `name;` (curl drops a header written `name:`). */
function headerArgument(name: string, value: string, secrets: readonly Secret[]): string {
  return `-H ${shellWord(value === '' ? `${name};` : `${name}: ${value}`, secrets)}`;
}

/** A printf(1) format writing exactly these bytes: controls and non-UTF-8 bytes as octal escapes (POSIX). */
function printfFormat(bytes: Uint8Array, validUtf8: boolean): string {
  let out = '';
  for (const byte of bytes) {
    if (byte === 0x25) out += '%%';
    else if (byte === 0x5c) out += '\\\\';
    else if (byte === 0x27) out += `'\\''`;
    else if (byte < 0x20 || byte === 0x7f || (byte >= 0x80 && !validUtf8)) out += `\\${byte.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(byte);
  }
  // Multi-byte UTF-8 went through byte by byte above; put the characters back together.
  return validUtf8 ? Buffer.from(out, 'latin1').toString('utf8') : out;
}

/**
 * The request as a `curl` command that sends the same bytes: the body inline when it is plain
 * text, through `printf` when it holds control characters or bytes that are not UTF-8.
 */
export function toCurl(base: URL, request: RequestCase, token?: string): string {
  const secrets = secretsOf(request, token);
  const parts = ['curl', '-sS', '-i', '-X', request.method, shellWord(urlFor(base, request.path).href, secrets)];
  for (const [name, value] of [...Object.entries(request.headers), ...(request.extraLines ?? [])]) parts.push(headerArgument(name, value, secrets));
  const text = utf8OrUndefined(request.body);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
  if (text !== undefined && !/[\u0000-\u001f\u007f]/.test(text)) return [...parts, '--data-binary', shellQuote(text)].join(' ');
  return `printf '${printfFormat(request.body, text !== undefined)}' | ${[...parts, '--data-binary', '@-'].join(' ')}`;
}

/** A wall time for people, in seconds. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters; the full command is in the --json report)` : text;
}

function describeOutcome(outcome: ReportedOutcome, maxChars: number): string {
  if (outcome.kind === 'failure') return `no response: ${outcome.failure} - ${outcome.message}`;
  const headers = ['content-type', 'www-authenticate', 'allow'].flatMap((h) => (outcome.headers[h] === undefined ? [] : [`${h}: ${outcome.headers[h]}`]));
  return `HTTP ${outcome.status}${headers.length > 0 ? `  ${headers.join('  ')}` : ''}\n${shorten(outcome.body || '(empty body)', maxChars)}`;
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((line) => by + line)
    .join('\n');
}

/** The command that replays a run: its seed, and the settings that change what is sent or judged. */
export function replayCommand(report: Report): string {
  const capacity = report.capacity?.target ?? 0;
  const settings = [
    report.profile === 'mock' ? ' --profile mock' : '',
    ` --runs ${report.runs}`,
    capacity === DEFAULT_CAPACITY ? '' : ` --capacity ${capacity}`,
    report.responseTimes.maxResponseTimeMs === DEFAULT_MAX_RESPONSE_TIME_MS ? '' : ` --max-response-time ${report.responseTimes.maxResponseTimeMs}`,
  ];
  return `plant-store conform --base-url ${report.target.replace(/\/$/, '')} --token "$TOKEN"${settings.join('')} --seed ${report.seed}`;
}

const SEVERITY_WORD = { failure: 'FAILED', warning: 'WARNING' } as const;

/** How a finding's request was found: shrunk, minimal already, sent in every run, or not shown again. */
export function howFound(finding: ReportedFinding): string {
  return !finding.reproduced
    ? 'did not show it again when replayed alone (intermittent, or it depends on earlier requests); shown as first seen'
    : finding.shrinks > 0
      ? `shrunk in ${finding.shrinks} steps`
      : finding.phase === 'random'
        ? 'already minimal'
        : `a ${finding.phase} request, sent in every run`;
}

function describeFinding(finding: ReportedFinding, report: Report, maxChars: number): string {
  const head = `${SEVERITY_WORD[finding.severity]} ${finding.check}: ${finding.message}`;
  const times = `${finding.occurrences} of ${report.requests} requests`;
  if (finding.request === undefined || finding.curl === undefined || finding.response === undefined) {
    return [head, `  found in the run as a whole (${times} were looked at together); replay with: ${replayCommand(report)}`].join('\n');
  }
  const how = howFound(finding);
  return [
    head,
    `  request (${finding.request.kind}${finding.request.variant ? `: ${finding.request.variant}` : ''}), ${how}:`,
    indent(shorten(finding.curl, maxChars), '    '),
    '  response:',
    indent(describeOutcome(finding.response, maxChars), '    '),
    `  ${times} ${finding.severity === 'failure' ? 'broke' : 'warned of'} ${finding.check}; replay with: ${replayCommand(report)}`,
  ].join('\n');
}

/** A time for people: whole milliseconds from 100 ms, two significant digits below. */
export function milliseconds(ms: number): string {
  return ms >= 100 ? `${Math.round(ms)} ms` : `${ms.toPrecision(2)} ms`;
}

/** Capacity, connections, response times and the canary, a line each. */
export function timeAndCapacity(report: Report): string[] {
  const lines: string[] = [];
  const capacity = report.capacity;
  if (capacity) {
    const what = capacity.stores ? 'plants stored' : 'plants answered (a mock stores nothing)';
    const budget =
      capacity.gaveUp !== undefined
        ? `stopped after ${capacity.sent} of ${capacity.target}: ${capacity.gaveUp}`
        : capacity.budgetHit
          ? `the ${seconds(capacity.budgetMs)} budget ran out after ${capacity.sent} of ${capacity.target}`
          : `all ${capacity.target} sent within the ${seconds(capacity.budgetMs)} budget`;
    const replaced = capacity.replacementsSent > 0 ? `; then ${capacity.replaced} of ${capacity.replacementsSent} replaced` : '';
    lines.push(`capacity: ${capacity.stored} ${what}, ${capacity.refused} refused (${budget})${replaced}`);
  }
  lines.push(`connections: ${report.freshConnections} opened for one request each (Connection: close), besides the kept-alive ones`);
  const times = report.responseTimes;
  if (times.responses > 0) {
    const unconfirmed = times.unconfirmed > 0 ? `; ${times.unconfirmed} over it during the run but not when replayed alone` : '';
    lines.push(`response times: median ${milliseconds(times.medianMs)}, p99 ${milliseconds(times.p99Ms)}, slowest ${milliseconds(times.maxMs)} (bound ${milliseconds(times.boundMs)}${unconfirmed})`);
  }
  const trend = report.degradation.trend;
  if (trend) {
    lines.push(`canary: ${milliseconds(trend.firstMs)} at first, ${milliseconds(trend.lastMs)} at last (${trend.readings} readings, Mann–Kendall z = ${trend.z.toFixed(2)})`);
  }
  return lines;
}

/** A check's verdict in a run, from its counts. */
export function verdictOf(failures: number, warnings: number, requests: number): string {
  if (failures > 0) return 'FAILED';
  if (warnings > 0) return 'warning';
  return requests === 0 ? 'not exercised' : 'ok';
}

/** The run as text: a line per check, then each finding with its minimal request, failures first. */
export function formatReport(report: Report, options: { maxChars?: number; strict?: boolean } = {}): string {
  const maxChars = options.maxChars ?? 2000;
  const width = Math.max(...CHECK_NAMES.map((n) => n.length));
  const phases = Object.entries(report.phases).map(([phase, summary]) => `${phase} ${summary.requests}`);
  const lines = [
    `${report.contract.title} ${report.contract.version} at ${report.target} (profile ${report.profile}, seed ${report.seed})`,
    `${report.requests} requests checked in ${seconds(report.checkingMs)} (${Math.round(report.requestsPerSecond)} requests/s; ${phases.join(', ')}); ${CHECK_NAMES.length} checks`,
    ...timeAndCapacity(report),
    '',
    `${'check'.padEnd(width)}  requests  failures  warnings`,
    ...CHECK_NAMES.map((name) => {
      const { requests, failures, warnings } = report.checks[name];
      return `${name.padEnd(width)}  ${String(requests).padStart(8)}  ${String(failures).padStart(8)}  ${String(warnings).padStart(8)}  ${verdictOf(failures, warnings, requests)}`;
    }),
  ];
  if (report.stoppedEarly) lines.push('', `Stopped early: ${report.stoppedEarly}.`);
  const hint = tokenHint(report);
  if (hint !== undefined) lines.push('', hint);
  for (const finding of [...report.failures, ...report.warnings]) lines.push('', describeFinding(finding, report, maxChars));
  const verdict = runVerdict(report, options.strict === true);
  const warned = verdict.warned;
  const warningNote = warned.length === 0 ? '' : ` ${warned.length} warning${warned.length === 1 ? '' : 's'} (${warned.join(', ')}): hazards the contract allows${options.strict === true ? ', failing the run under --strict' : ''}.`;
  lines.push(
    '',
    verdict.kept
      ? `The target kept the contract (seed ${report.seed}; ${seconds(report.durationMs)}).${warningNote}`
      : `The target broke the contract: ${verdict.broken.join(', ') || 'see above'} (seed ${report.seed}; ${seconds(report.durationMs)}).${warningNote} Commands use $TOKEN for your token.`,
  );
  return lines.join('\n');
}

/** Every valid request refused with 401 is most likely the wrong --token, not a broken target. */
export function tokenHint(report: Report): string | undefined {
  const accepts = report.checks['accepts-valid'];
  const refused = report.failures.find((f) => f.check === 'accepts-valid')?.response;
  const allRefused = accepts.requests > 0 && accepts.failures === accepts.requests && refused?.kind === 'response' && refused.status === 401;
  return allRefused ? 'Every valid request got 401: is --token a token the implementation accepts?' : undefined;
}

/**
 * The run's verdict: kept when no check failed and every request was sent (`report.passed`) and,
 * under `--strict`, no check warned. `broken` names the checks that broke it.
 */
export function runVerdict(report: Report, strict: boolean): { readonly kept: boolean; readonly broken: readonly CheckName[]; readonly warned: readonly CheckName[] } {
  const warned = report.warnings.map((w) => w.check);
  return {
    kept: report.passed && !(strict && warned.length > 0),
    broken: [...report.failures.map((f) => f.check), ...(strict ? warned : [])],
    warned,
  };
}

/**
 * JUnit XML (the format Jenkins, GitLab and GitHub test reporters read): one test case per check.
 * A failure is a <failure>; a warning is printed in the case's <system-out> and, under `strict`,
 * is a <failure> too.
 */
export function toJUnit(report: Report, options: { strict?: boolean } = {}): string {
  const strict = options.strict === true;
  const failed = new Map(report.failures.map((f) => [f.check, f]));
  const warned = new Map(report.warnings.map((f) => [f.check, f]));
  const cases: JUnitCase[] = CHECKS.map(({ name }): JUnitCase => {
    const failure = failed.get(name) ?? (strict ? warned.get(name) : undefined);
    const warning = warned.get(name);
    if (failure) return { name, outcome: { kind: 'failure', message: failure.message, type: failure.severity === 'failure' ? name : `${name} (warning, --strict)`, text: describeFinding(failure, report, 100_000) } };
    if (warning) return { name, outcome: { kind: 'output', text: describeFinding(warning, report, 100_000) } };
    if (report.checks[name].requests === 0) return { name, outcome: { kind: 'skipped', message: 'no request exercised this check' } };
    return { name, outcome: { kind: 'passed' } };
  });
  if (report.stoppedEarly !== undefined) cases.push({ name: 'run completed', outcome: { kind: 'error', message: report.stoppedEarly } });
  return junitXml({
    tool: 'conform',
    name: `${report.contract.title} ${report.contract.version} at ${report.target}`,
    durationMs: report.durationMs,
    properties: [
      ['seed', report.seed],
      ['runs', report.runs],
      ['profile', report.profile],
      ['requests', report.requests],
      ['warnings', report.warnings.length],
      ['strict', strict],
    ],
    cases,
  });
}
