/**
 * The record's requests and answers as reports show them: requests as data and as `curl`
 * commands, answers cut to size, and the command that replays a run. The token never appears:
 * commands read it from `$TOKEN`, reports show `<token>`.
 */
import { replaceSecrets as redact, secretPieces as pieces, urlFor, type Secret } from '../../src/http/index.js';
import { DEFAULT_CAPACITY } from '../defaults.js';
import { DEFAULT_MAX_RESPONSE_TIME_MS, type HttpOutcome, type RequestCase } from '../../oracle/index.js';
import type { Report, ReportedOutcome, ReportedRequest } from './record.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function utf8OrUndefined(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** What a request holds that reports hide: the token, and text made from it; the longest first, as one may hold the other. */
export interface ReportedSecret extends Secret {
  /** A POSIX shell expression that gives `text` from `$TOKEN` (DerivedSecret.shell). */
  readonly shell: string;
}

function secretsOf(request: RequestCase, token: string | undefined, credentials: readonly ReportedSecret[] = []): ReportedSecret[] {
  const secrets: ReportedSecret[] = [...credentials];
  if (request.derived !== undefined && request.derived.text !== '') secrets.push(request.derived);
  if (token) secrets.push({ text: token, placeholder: '<token>', shell: '${TOKEN}' });
  return secrets.sort((a, b) => b.text.length - a.text.length);
}

export function reportedRequest(base: URL, request: RequestCase, token?: string, credentials?: readonly ReportedSecret[]): ReportedRequest {
  const text = utf8OrUndefined(request.body);
  const secrets = secretsOf(request, token, credentials);
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
function shellWord(text: string, secrets: readonly ReportedSecret[]): string {
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
function headerArgument(name: string, value: string, secrets: readonly ReportedSecret[]): string {
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
export function toCurl(base: URL, request: RequestCase, token?: string, credentials?: readonly ReportedSecret[]): string {
  const secrets = secretsOf(request, token, credentials);
  const parts = ['curl', '-sS', '-i', '-X', request.method, shellWord(urlFor(base, request.path).href, secrets)];
  for (const [name, value] of [...Object.entries(request.headers), ...(request.extraLines ?? [])]) parts.push(headerArgument(name, value, secrets));
  const text = utf8OrUndefined(request.body);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
  if (text !== undefined && !/[\u0000-\u001f\u007f]/.test(text)) return [...parts, '--data-binary', shellQuote(text)].join(' ');
  return `printf '${printfFormat(request.body, text !== undefined)}' | ${[...parts, '--data-binary', '@-'].join(' ')}`;
}

/** A word for the shell: as it is where it holds nothing the shell reads, else in single quotes. */
function shellArgument(text: string): string {
  return /^[\w./:@%+=,-]+$/.test(text) ? text : shellQuote(text);
}

/** The command that replays a run: its contract (where it is not the kit's own), its seed, and the settings that change what is sent or judged. */
export function replayCommand(report: Report): string {
  const capacity = report.capacity?.target ?? 0;
  const settings = [
    report.contract.bundled ? '' : ` --contract ${shellArgument(report.contract.file)}`,
    report.profile === 'mock' ? ' --profile mock' : '',
    ` --runs ${report.runs}`,
    capacity === DEFAULT_CAPACITY ? '' : ` --capacity ${capacity}`,
    report.responseTimes.maxResponseTimeMs === DEFAULT_MAX_RESPONSE_TIME_MS ? '' : ` --max-response-time ${report.responseTimes.maxResponseTimeMs}`,
  ];
  // A run with credentials per scheme only has no token: they come back from PLANT_STORE_AUTH_<SCHEME>.
  const token = report.security?.token === false ? '' : ' --token "$TOKEN"';
  return `plant-store conform --base-url ${report.target.replace(/\/$/, '')}${token}${settings.join('')} --seed ${report.seed}`;
}
