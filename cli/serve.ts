/** `plant-store serve`: the reference implementation on a socket. What it does is cli/run/serve.ts. */
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_DEPTH } from '../src/http/index.js';
import { DEFAULT_MAX_ENTRIES } from '../src/reference/index.js';
import { specifyCommand, type OptionValues } from './command.js';
import { acceptedTokens, admin, auth, contract, flag, host, integer, journalSize, option, port, quiet, store, withDefault } from './options.js';

/** serve's options; `start` takes them too. */
export const REFERENCE_OPTIONS = {
  contract,
  port: withDefault(port, 3000),
  host,
  token: acceptedTokens,
  auth,
  maxBodyBytes: withDefault(option('--max-body-bytes <n>', 'largest request body accepted', integer(1, 2 ** 30)), DEFAULT_MAX_BODY_BYTES),
  maxDepth: withDefault(option('--max-depth <n>', 'deepest nesting of arrays and objects accepted', integer(1, 10_000)), DEFAULT_MAX_DEPTH),
  maxEntries: withDefault(option('--max-entries <n>', 'plants kept (per session); the oldest is forgotten beyond this', integer(1, 100_000_000)), DEFAULT_MAX_ENTRIES),
  store,
  cors: flag('--cors', 'let pages on other origins call it, as the mock does: CORS preflights get 204, every answer is readable (WWW-Authenticate included)'),
  journal: flag('--journal', 'keep a request journal (off by default: it holds bodies), read at /__plant-store/requests'),
  journalSize,
  admin,
  quiet,
};

export type ServeOptions = OptionValues<typeof REFERENCE_OPTIONS>;

/** serve's own: several processes on one port (node:cluster), which only a shared store allows. */
export const SERVE_OPTIONS = {
  ...REFERENCE_OPTIONS,
  workers: withDefault(option('--workers <n>', 'processes answering on the one port (node:cluster); more than 1 needs --store redis://…', integer(1, 256)), 1),
};

export type ServeCommandOptions = OptionValues<typeof SERVE_OPTIONS>;

export const serve = specifyCommand({
  name: 'serve',
  description: 'run the reference implementation of the contract (stateful for its collection/item pattern)',
  options: SERVE_OPTIONS,
  help: `
With no --token and no PLANT_STORE_TOKENS, a random token is generated and printed: the server is never open to everyone.
A contract's security scheme given no --auth (nor PLANT_STORE_AUTH_<SCHEME>) accepts the tokens: as the bearer
token (http bearer, oauth2, openIdConnect), the key (apiKey), or the password of any user (http basic).
One log line per request goes to standard output (method, path, status, time; never credentials).
With --journal the last requests, each with its verdict and answer, are kept: GET /__plant-store/requests
(JSON; DELETE clears it) and a live page at /__plant-store/. Credentials are masked in it.
With --store redis://host:port/db (or PLANT_STORE_REDIS_URL) the plants live in that Redis, shared by every
serve of the same contract on it (docs/reference-server.md, "Sharing one reference"); Redis out of reach at start
is bad usage (exit 2), and while serving each request that needs it gets a 503.
SIGINT or SIGTERM stop it gracefully: requests in flight finish.`,
});
