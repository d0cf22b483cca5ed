/**
 * The request journal: the last N exchanges a server answered - each request with its verdict and
 * the answer given - so that a frontend developer, or a test, can see what was sent. The mock
 * keeps one by default, the reference with `--journal`, with the pipeline's verdicts (`Verdict`);
 * the checking proxy (proxy/) keeps one by default, with its own (`ProxyVerdict`: the engine's
 * findings on the upstream's answer). One entry type serves both: `JournalVerdict` is their union,
 * told apart by `outcome`. Anything else that answers requests can keep one: `createJournal()`,
 * then `add()` each exchange.
 *
 * - **Bounded**: a ring of `size` entries (the oldest is forgotten, and counted in `dropped`);
 *   each body kept up to `bodyBytes` (then cut, at a character boundary, and marked `truncated`).
 * - **No credentials**: an exchange is masked as it is added, by the kit's one policy
 *   (secrets.ts): Authorization keeps its scheme and hides the rest (`Bearer ***`); cookies keep
 *   their names; a header, query parameter or form field named like a secret is hidden; and what
 *   was hidden is also blotted out of the verdict and the answer, which may quote it (`the ***
 *   scheme is not accepted`, for a token sent without its scheme). JSON bodies are kept as sent:
 *   they are the data a test asserts on.
 * - **Read over HTTP** at the reserved admin path (`adminRoutes`, which every server routes to
 *   first through admin.ts's `adminRouter`; never itself journaled): `GET /__plant-store/requests` (JSON), `DELETE` there
 *   (clear), `GET /__plant-store/` (a live page, journal-page.ts).
 */
import { splitTarget } from './rules.js';
import { PlantStoreError } from './errors.js';
import { errorResponse, type AppResponse, type ServedExchange, type Fault, type JournalVerdict } from './exchange.js';
import { ADMIN_PREFIX, type AdminRoutes } from './admin.js';
import { JOURNAL_PAGE, journalPagePolicy } from './journal-page.js';
import { blot, blotAll, isForm, maskAnswerHeaders, maskParameters, maskRequestHeaders, maskTarget, type Hidden, type SecretNames } from './secrets.js';

export const DEFAULT_JOURNAL_SIZE = 100;
/** The most entries a journal may keep; with bodies cut at the default 16 KiB, at most about 320 MiB. */
export const MAX_JOURNAL_SIZE = 10_000;
export const DEFAULT_JOURNAL_BODY_BYTES = 16 * 1024;

/** A body as kept: its text when it is UTF-8, base64 otherwise; `bytes` is its whole length. */
export type JournalBody = { readonly bytes: number; readonly truncated?: true } & ({ readonly text: string } | { readonly base64: string });

export interface JournalRequest {
  readonly method: string;
  /** The request target as sent, secrets in its query masked. */
  readonly target: string;
  /** Its path, without the query. */
  readonly path: string;
  /** Lower-case names, repeated fields joined with `, `; credentials masked. */
  readonly headers: Readonly<Record<string, string>>;
  /** Null when the body was not read: the request was refused on its head (credentials are judged before the body). */
  readonly body: JournalBody | null;
}

export interface JournalAnswer {
  readonly status: number;
  /** The headers the answer set (Content-Length and Connection are the socket layer's). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: JournalBody;
  /** How long the answer was held back (present when it was). */
  readonly delayMs?: number;
  /** How the answer was broken on purpose (present when it was): `reset`, `timeout` and `garbage` send none of it, `truncated` half. */
  readonly fault?: Fault;
}

export interface JournalEntry<V extends JournalVerdict = JournalVerdict> {
  /** 1, 2, 3, … in the order answers were given; never reused, not even after `clear()`. */
  readonly id: number;
  /** When the request arrived (ISO 8601). */
  readonly time: string;
  /** From the request's head to its answer, any delay included. */
  readonly durationMs: number;
  readonly request: JournalRequest;
  readonly verdict: V;
  readonly answer: JournalAnswer;
}

/** The journal as `GET /__plant-store/requests` gives it. */
export interface JournalSnapshot<V extends JournalVerdict = JournalVerdict> {
  /** How many entries it keeps at most. */
  readonly capacity: number;
  /** How many it holds. */
  readonly held: number;
  /** How many were forgotten to make room, since the start or the last clear. */
  readonly dropped: number;
  /** The id the next entry will get (the oldest held is `next - held`). */
  readonly next: number;
  /** Oldest first; with `after`, only those whose id is greater. */
  readonly requests: readonly JournalEntry<V>[];
}

export interface JournalOptions {
  /** Entries kept (default 100, at most 10,000). */
  readonly size?: number | undefined;
  /** Bytes kept of each body (default 16 KiB). */
  readonly bodyBytes?: number | undefined;
  /** The names of the contract's API keys, masked whatever they look like (secrets.ts; credentials.ts, secretNamesOf). */
  readonly secretNames?: SecretNames | undefined;
}

export interface Journal<V extends JournalVerdict = JournalVerdict> {
  readonly capacity: number;
  /** Masks an exchange and keeps it, forgetting the oldest entry when full; gives the entry. */
  add(exchange: ServedExchange<V>): JournalEntry<V>;
  /** The entries held, oldest first; with `after`, those whose id is greater. */
  list(after?: number): JournalEntry<V>[];
  /** Forgets every entry; gives how many there were. */
  clear(): number;
  snapshot(after?: number): JournalSnapshot<V>;
}

export function createJournal<V extends JournalVerdict = JournalVerdict>(options: JournalOptions = {}): Journal<V> {
  const capacity = options.size ?? DEFAULT_JOURNAL_SIZE;
  const bodyBytes = options.bodyBytes ?? DEFAULT_JOURNAL_BODY_BYTES;
  if (!Number.isInteger(capacity) || capacity < 1 || capacity > MAX_JOURNAL_SIZE) throw new RangeError(`journal size: ${String(capacity)} is not a whole number from 1 to ${MAX_JOURNAL_SIZE}`);
  if (!Number.isInteger(bodyBytes) || bodyBytes < 0) throw new RangeError(`journal body bytes: ${String(bodyBytes)} is not a whole number of bytes`);
  const slots: (JournalEntry<V> | undefined)[] = new Array<JournalEntry<V> | undefined>(capacity);
  let start = 0;
  let held = 0;
  let next = 1;
  let dropped = 0;

  const list = (after = 0): JournalEntry<V>[] => {
    const oldest = next - held;
    const entries: JournalEntry<V>[] = [];
    for (let i = Math.max(0, after - oldest + 1); i < held; i++) entries.push(slots[(start + i) % capacity] as JournalEntry<V>);
    return entries;
  };

  return {
    capacity,
    add(exchange) {
      const entry = toEntry(next++, exchange, bodyBytes, options.secretNames);
      if (held < capacity) {
        slots[(start + held) % capacity] = entry;
        held++;
      } else {
        slots[start] = entry;
        start = (start + 1) % capacity;
        dropped++;
      }
      return entry;
    },
    list,
    clear() {
      const cleared = held;
      slots.fill(undefined);
      start = 0;
      held = 0;
      dropped = 0;
      return cleared;
    },
    snapshot: (after) => ({ capacity, held, dropped, next, requests: list(after) }),
  };
}

// ---- bodies ----------------------------------------------------------------------------------

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
// Encoders and btoa rather than Buffer: the MSW handlers keep a journal in the browser.
const UTF8_ENCODER = new TextEncoder();

/** Bytes as base64 (RFC 4648, section 4), through btoa's one byte per character, a slice at a time (no call with a million arguments). */
function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * A body as kept: cut at `limit` bytes (at a character boundary), as text when it is UTF-8, base64
 * otherwise. `whole` is its whole length when `body` is only its first bytes (then it is cut).
 */
function keepBody(body: string | Uint8Array, limit: number, transform?: (text: string) => string, whole?: number): JournalBody {
  // A string of at most limit / 3 UTF-16 units has at most `limit` bytes: no encoding needed.
  if (whole === undefined && typeof body === 'string' && body.length * 3 <= limit) return { bytes: UTF8_ENCODER.encode(body).length, text: transform ? transform(body) : body };
  const bytes = typeof body === 'string' ? UTF8_ENCODER.encode(body) : body;
  const total = Math.max(whole ?? 0, bytes.length);
  const cut = total > limit || total > bytes.length;
  const kept = bytes.length > limit ? bytes.subarray(0, limit) : bytes;
  const text = decodeCut(kept, cut);
  const shown: JournalBody = text === undefined ? { bytes: total, base64: base64Of(kept) } : { bytes: total, text: transform ? transform(text) : text };
  return cut ? { ...shown, truncated: true } : shown;
}

/** Strict UTF-8; a cut may have split the last character, whose first bytes are then dropped. */
function decodeCut(bytes: Uint8Array, cut: boolean): string | undefined {
  let end = bytes.length;
  if (cut) {
    // Back over continuation bytes (10xxxxxx) to the lead byte of the last character; if the
    // character needs more bytes than the cut left, it is dropped (RFC 3629, section 3).
    let lead = end - 1;
    while (lead > 0 && end - lead < 4 && ((bytes[lead] as number) & 0xc0) === 0x80) lead--;
    const first = bytes[lead] ?? 0;
    const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
    if (length > end - lead) end = lead;
  }
  try {
    return utf8.decode(bytes.subarray(0, end));
  } catch {
    return undefined;
  }
}

function toEntry<V extends JournalVerdict>(id: number, exchange: ServedExchange<V>, bodyBytes: number, names: SecretNames | undefined): JournalEntry<V> {
  const { request, response } = exchange;
  const hidden: Hidden = [];
  const url = request.url ?? '/';
  const { path } = splitTarget(url);
  const target = maskTarget(url, hidden, names);
  const headers = maskRequestHeaders(request.headers, hidden, names);
  const body = exchange.body === undefined ? null : keepBody(exchange.body, bodyBytes, isForm(request.headers) ? (text) => maskParameters(text, hidden) : undefined, exchange.bodyBytes);
  const answerHeaders = maskAnswerHeaders(response.headers, hidden);
  const answerBody = keepBody(response.body, bodyBytes, hidden.length === 0 ? undefined : (text) => blot(text, hidden));
  const durationMs = Math.round(exchange.durationMs * 100) / 100;
  return {
    id,
    time: new Date(Date.now() - durationMs).toISOString(),
    durationMs,
    request: { method: request.method ?? '', target, path, headers, body },
    verdict: blotAll(exchange.verdict, hidden),
    answer: {
      status: response.status,
      headers: answerHeaders,
      body: answerBody,
      ...(exchange.delayMs > 0 ? { delayMs: exchange.delayMs } : {}),
      ...(response.fault === undefined ? {} : { fault: response.fault }),
    },
  };
}

// ---- the admin path --------------------------------------------------------------------------

const PAGE_PATHS = new Set([ADMIN_PREFIX, `${ADMIN_PREFIX}/`]);
const REQUESTS_PATH = `${ADMIN_PREFIX}/requests`;
const NOT_STORED = { 'cache-control': 'no-store' };

/**
 * The admin path, served by the pipeline (its `admin` option) before any rule: the journal's page
 * (`GET /__plant-store/`), the journal as JSON (`GET /__plant-store/requests`, `?after=<id>` for
 * the newer entries only) and its clearing (`DELETE /__plant-store/requests`). Another method is
 * a 405 Error, another path under the prefix a 404 Error. Without a journal, its resources are a
 * 404 Error whose message ends with `journalOff` (how to turn it on).
 */
export function adminRoutes(journal: Journal | undefined, journalOff = 'this server keeps none'): AdminRoutes {
  return (request, path, query) => {
    const method = request.method ?? '';
    const page = PAGE_PATHS.has(path);
    if (!page && path !== REQUESTS_PATH) {
      return errorResponse(new PlantStoreError('not_found', `path: no admin resource at ${shorten(path)}; the admin path has ${ADMIN_PREFIX}/ (the journal's page) and ${REQUESTS_PATH} (the journal as JSON)`));
    }
    const allowed = page ? 'GET, HEAD' : 'GET, HEAD, DELETE';
    if (!allowed.split(', ').includes(method)) return errorResponse(new PlantStoreError('method_not_allowed', `method: ${shorten(method)} is not allowed on ${path}; use ${allowed}`, { headers: { allow: allowed } }));
    if (journal === undefined) return errorResponse(new PlantStoreError('not_found', `journal: no request journal is kept; ${journalOff}`));
    if (page) return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': journalPagePolicy(), ...NOT_STORED }, body: JOURNAL_PAGE };
    if (method === 'DELETE') return json({ cleared: journal.clear() });
    const after = new URLSearchParams(query).get('after');
    if (after !== null && !/^\d{1,15}$/.test(after)) return errorResponse(new PlantStoreError('invalid_admin_query', `after: ${shorten(after)} is not a request number; ask for ?after=<id> to get the entries after it`));
    return json(journal.snapshot(after === null ? 0 : Number(after)));
  };
}

/**
 * What a server's options make of a journal for its pipeline: every exchange added to it, and
 * the admin path served unless `admin` is false (the kit's servers, one line each).
 */
export function journalSeams(journal: Journal | undefined, admin: boolean | undefined, journalOff: string): { onExchange: ((exchange: ServedExchange) => void) | undefined; admin: AdminRoutes | undefined } {
  return {
    onExchange: journal === undefined ? undefined : (exchange) => void journal.add(exchange),
    admin: admin === false ? undefined : adminRoutes(journal, journalOff),
  };
}

function json(value: unknown): AppResponse {
  return { status: 200, headers: { 'content-type': 'application/json', ...NOT_STORED }, body: JSON.stringify(value) };
}

function shorten(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
