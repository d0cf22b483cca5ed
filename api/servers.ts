/**
 * Starting the kit's two servers on a socket: the one implementation behind both the programmatic
 * API (`startReference`, `startMock` from the package) and the command line (`plant-store serve`,
 * `mock`, `start`), so the two cannot drift apart. A test setup gets a free port, a token and an
 * idempotent `close()`; the command line adds its banner, its request log and Ctrl-C.
 */
import { randomBytes } from 'node:crypto';
import { createMock } from '../mock/index.js';
import { describeExchange, listenProxy, type ProxiedExchange, type ProxySummary } from '../proxy/index.js';
import { createJournal, secretNamesOf, isWellFormedToken, schemePolicies, acceptAnyToken, type GivenCredentials, listen, MAX_JOURNAL_SIZE, type Journal, type JournalEntry, type JournalVerdict, type ProxyVerdict, type RunningServer, type Verdict } from '../src/http/index.js';
import { createApp } from '../src/reference/index.js';
import { openContract, type Contract } from '../src/openapi/index.js';

/** Where a server listens and what it logs; the same for both servers. */
export interface ListenSettings {
  /** Default 0: the system picks a free port (read it from `url`). */
  readonly port?: number;
  /** Default 127.0.0.1: nothing outside this machine can reach it. */
  readonly host?: string;
  /** Told one line per request (method, path, status, time; never credentials). Default: no log. */
  readonly log?: (line: string) => void;
  /** Requests the journal keeps (default 100, at most 10,000); the oldest is forgotten beyond it. */
  readonly journalSize?: number;
  /** Serve the admin path `/__plant-store/` (the journal as JSON and its live page); default true. */
  readonly admin?: boolean;
  /**
   * The contract served or checked: a loaded one, or the file of an OpenAPI document (3.1 or 3.2;
   * Swagger 2.0 and 3.0 upgraded, other files bundled: docs/contracts.md); default
   * the kit's openapi.yaml. A contract with a feature the kit cannot honour is refused (docs/contracts.md).
   */
  readonly contract?: Contract | string;
}

/** The contract a server is given: read from its file (upgraded and bundled as needed), or the kit's own. */
async function contractOf(given: Contract | string | undefined): Promise<Contract> {
  return typeof given === 'string' ? openContract(given) : (given ?? openContract());
}

export interface StartReferenceOptions extends ListenSettings {
  /** The bearer tokens accepted (RFC 6750 b64token). None given: one is generated, see `token`. */
  readonly tokens?: readonly string[];
  /**
   * Credentials accepted per security scheme of the contract, by its name: a bearer token, `user:password`
   * (HTTP basic), the key (apiKey), `token` or `token:scope1,scope2` (OAuth 2, OpenID Connect). A scheme
   * without any accepts `tokens` (HTTP basic: as the password of any user); see docs/contracts.md.
   */
  readonly credentials?: GivenCredentials;
  /** The largest request body accepted (default 1 MiB); larger bodies get a 400 Error. */
  readonly maxBodyBytes?: number;
  /** The deepest nesting of arrays and objects accepted (default 64). */
  readonly maxDepth?: number;
  /** Plants kept in memory (default 100,000); the oldest is forgotten beyond this. */
  readonly maxEntries?: number;
  /** Answer CORS preflights and let pages on other origins read every answer, as the mock does (default off). */
  readonly cors?: boolean;
  /** Keep a request journal (`requests()`, `GET /__plant-store/requests`); default false: it holds bodies. */
  readonly journal?: boolean;
}

export interface StartMockOptions extends ListenSettings {
  /** The token handed back in `token`. The mock accepts any well-formed bearer token; default: a generated one. */
  readonly token?: string;
  /** Credentials accepted per security scheme, by its name (as startReference's); a scheme without any accepts any well-formed credential. */
  readonly credentials?: GivenCredentials;
  /** Answer generated data (json-schema-faker) instead of the examples in openapi.yaml. */
  readonly dynamic?: boolean;
  /** Seed of the generated data: the same seed gives the same data, run after run. */
  readonly seed?: string;
  /** Simulated latency: every answer waits this long (milliseconds). */
  readonly delayMs?: number;
  /** The largest request body accepted (default 1 MiB). */
  readonly maxBodyBytes?: number;
  /** The deepest nesting of arrays and objects accepted (default 64). */
  readonly maxDepth?: number;
  /** Keep a request journal (`requests()`, `GET /__plant-store/requests`); default true. */
  readonly journal?: boolean;
}

/** Where the proxy listens, what it logs and the journal it keeps. */
export interface StartProxyOptions extends ListenSettings {
  /** The implementation checked, e.g. `http://127.0.0.1:3000` (a path prefix is kept). Required. */
  readonly upstream: string;
  /** Bearer tokens the upstream accepts: a 401 to one of them is a finding. Another token is judged as the answer shows the upstream took it. */
  readonly tokens?: readonly string[];
  /** Credentials the upstream accepts per security scheme of the contract, by name (a token, basic `user:password`, an API key): they judge the operations of other schemes than one bearer scheme. */
  readonly credentials?: Readonly<Record<string, string>>;
  /** Replace an answer that breaks the contract with a 502 Error describing the violations. */
  readonly errors?: boolean;
  /** How long the upstream has for each answer (default 30 s); a timeout is answered 504 and is a finding. */
  readonly timeoutMs?: number;
  /** Told every exchange once it is answered: the request (credentials masked), the answer, what the request is, the findings. */
  readonly onExchange?: (exchange: ProxiedExchange) => void;
  /** Keep a request journal of the exchanges with their findings (`requests()`, `GET /__plant-store/requests`); default true. */
  readonly journal?: boolean;
  /** Judge a read along the contract's links by what the proxy saw created, replaced or deleted before it; default true (false: each read on its own). */
  readonly linkedReads?: boolean;
}

/** The checking proxy, up. */
export interface StartedProxy {
  /** Where it listens: point the client here instead of at the upstream. */
  readonly url: string;
  /** Per check: exchanges judged, failures, warnings and the first example of each, so far. */
  summary(): ProxySummary;
  /** Stops it: no new connections, exchanges in flight finish. Idempotent. */
  close(): Promise<void>;
}

/** The checking proxy with its journal: every exchange, the upstream's answer and the proxy's verdict (the findings). */
export interface JournaledProxy extends StartedProxy {
  /** The exchanges, oldest first (the last `journalSize`); see `findRequests` to assert on them (`{ outcome: 'violated' }`, `{ check: 'echo' }`). */
  requests(): JournalEntry<ProxyVerdict>[];
  /** Forgets them (between tests, say). */
  clearRequests(): void;
}

/** A kit server that is up. */
export interface StartedServer {
  /** Where it listens, e.g. `http://127.0.0.1:43817`: the base URL of `POST /plants`. */
  readonly url: string;
  /** A bearer token it accepts. */
  readonly token: string;
  /** Stops it: no new connections, requests in flight finish. Resolves when it is closed; calling it again is harmless. */
  close(): Promise<void>;
}

/** A token nobody can guess: 18 random bytes in base64url, which is a b64token (RFC 6750, section 2.1). */
export function generateToken(): string {
  return randomBytes(18).toString('base64url');
}

function checkToken(token: string, option: string): string {
  // A token the pipeline would never accept would leave a server that refuses everything, silently.
  if (!isWellFormedToken(token)) throw new TypeError(`${option}: ${JSON.stringify(token)} is not a bearer token (RFC 6750 b64token: letters, digits and - . _ ~ + /, optionally ending in =)`);
  return token;
}

/** Credentials for a scheme the contract does not declare, or that its type refuses, are a TypeError naming the scheme. */
function checkCredentials(contract: Contract, credentials: GivenCredentials | undefined): void {
  try {
    schemePolicies(contract, acceptAnyToken, credentials);
  } catch (error) {
    throw new TypeError(`credentials: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A server that keeps a request journal: what it was sent, with each verdict and answer. */
export interface JournaledServer extends StartedServer {
  /** The requests it answered, oldest first (the last `journalSize`); see `findRequests` to assert on them. */
  requests(): JournalEntry<Verdict>[];
  /** Forgets them (between tests, say). */
  clearRequests(): void;
}

function started(running: RunningServer, token: string): StartedServer {
  let closing: Promise<void> | undefined;
  return { url: running.url, token, close: () => (closing ??= running.close()) };
}

function journaled<S extends object, V extends JournalVerdict>(server: S, journal: Journal<V>): S & { requests(): JournalEntry<V>[]; clearRequests(): void } {
  return {
    ...server,
    requests: () => journal.list(),
    clearRequests: () => {
      journal.clear();
    },
  };
}

function journalFor<V extends JournalVerdict = Verdict>(size: number | undefined, contract: Contract): Journal<V> {
  // A size the command line would refuse is refused here too, rather than quietly clamped.
  if (size !== undefined && (!Number.isInteger(size) || size < 1 || size > MAX_JOURNAL_SIZE)) throw new TypeError(`journalSize: ${String(size)} is not a whole number from 1 to ${MAX_JOURNAL_SIZE}`);
  // The contract's API keys are masked by their names, whatever those look like.
  return createJournal<V>({ size, secretNames: secretNamesOf(contract) });
}

/** The reference implementation (a stateful, exact Plant Store) on a socket; with `journal: true`, it keeps a request journal. */
export async function startReference(options: StartReferenceOptions & { readonly journal: true }): Promise<JournaledServer>;
export async function startReference(options?: StartReferenceOptions): Promise<StartedServer>;
export async function startReference(options: StartReferenceOptions = {}): Promise<StartedServer | JournaledServer> {
  const { port = 0, host = '127.0.0.1', log, tokens: wanted = [], journal: keep = false, journalSize, admin, contract, ...limits } = options;
  const given = wanted.map((token) => checkToken(token, 'tokens'));
  // With no token configured the server is still closed: one is generated and handed back.
  const tokens = given.length > 0 ? given : [generateToken()];
  const served = await contractOf(contract);
  const journal = keep ? journalFor(journalSize, served) : undefined;
  checkCredentials(served, limits.credentials);
  const running = await listen(createApp({ tokens, ...limits, journal, admin, contract: served }), { port, host, ...(log ? { log } : {}) });
  const server = started(running, tokens[0] as string);
  return journal ? journaled(server, journal) : server;
}

/** The Prism mock of openapi.yaml, behind the same request rules as the reference, on a socket; it keeps a request journal unless `journal: false`. */
export async function startMock(options?: StartMockOptions & { readonly journal?: true }): Promise<JournaledServer>;
export async function startMock(options: StartMockOptions): Promise<StartedServer>;
export async function startMock(options: StartMockOptions = {}): Promise<StartedServer | JournaledServer> {
  const { port = 0, host = '127.0.0.1', log, token = generateToken(), journal: keep = true, journalSize, admin, contract, ...behaviour } = options;
  checkToken(token, 'token');
  const served = await contractOf(contract);
  const journal = keep ? journalFor(journalSize, served) : undefined;
  checkCredentials(served, behaviour.credentials);
  const mock = await createMock({ ...behaviour, journal, admin, contract: served });
  // Answers held back by `delayMs` are not worth waiting for: a second after close() they are cut.
  const running = await listen(mock, { port, host, shutdownGraceMs: 1_000, ...(log ? { log } : {}) });
  const server = started(running, token);
  return journal ? journaled(server, journal) : server;
}

/**
 * The checking proxy in front of an implementation: every request forwarded unchanged, every answer
 * handed back with `Plant-Store-Violations` naming the checks it broke. `log` is told one line per
 * exchange with findings (never a token). It keeps a journal of the exchanges unless `journal: false`.
 */
export async function startProxy(options: StartProxyOptions & { readonly journal?: true }): Promise<JournaledProxy>;
export async function startProxy(options: StartProxyOptions): Promise<StartedProxy>;
export async function startProxy(options: StartProxyOptions): Promise<StartedProxy | JournaledProxy> {
  const { port = 0, host = '127.0.0.1', log, tokens = [], onExchange, journal: keep = true, journalSize, contract, ...behaviour } = options;
  const known = tokens.map((token) => checkToken(token, 'tokens'));
  const served = await contractOf(contract);
  const journal = keep ? journalFor<ProxyVerdict>(journalSize, served) : undefined;
  const running = await listenProxy({
    ...behaviour,
    contract: served,
    journal,
    port,
    host,
    tokens: known,
    onExchange: (exchange) => {
      const line = log === undefined ? undefined : describeExchange(exchange);
      if (line !== undefined) log?.(line);
      onExchange?.(exchange);
    },
  });
  // close() is idempotent already (src/http's socket layer).
  const proxy: StartedProxy = { url: running.url, summary: () => running.summary(), close: () => running.close() };
  return journal ? journaled(proxy, journal) : proxy;
}
