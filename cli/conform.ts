/**
 * `plant-store conform`: conformance-tests an implementation at any URL with requests generated
 * from openapi.yaml (fuzz/). What it does is cli/run/conform.ts, which alone loads the engine: the
 * defaults and names below come from the rooms that define them, not from the engine's API.
 */
import { DEFAULT_CAPACITY, DEFAULT_CONCURRENCY, DEFAULT_CONFORM_TIMEOUT_MS, DEFAULT_RUNS } from '../fuzz/defaults.js';
import { CHECK_NAMES, DEFAULT_MAX_RESPONSE_TIME_MS, MEDIAN_FACTOR } from '../oracle/index.js';
import { specifyCommand, type OptionValues } from './command.js';
import { baseUrl, clientAuth, contract, flag, headers, integer, junit, oneOf, option, timeout, token, withDefault } from './options.js';

const CONFORM_OPTIONS = {
  baseUrl,
  contract,
  token,
  auth: clientAuth,
  header: headers,
  profile: withDefault(oneOf('--profile <profile>', 'reference: every check; mock: no echo, any well-formed token accepted', ['reference', 'mock']), 'reference'),
  runs: withDefault(option('--runs <n>', 'requests to generate (with --duration, the least)', integer(1, 1_000_000)), DEFAULT_RUNS),
  duration: option('--duration <seconds>', 'keep generating requests this long: an endurance run (--runs is then the least)', integer(1, 7 * 24 * 3600)),
  capacity: withDefault(option('--capacity <plants>', 'distinct plants to store before the random phase (0: none)', integer(0, 1_000_000)), DEFAULT_CAPACITY),
  maxResponseTime: withDefault(option('--max-response-time <ms>', `an answer slower than this and than ${MEDIAN_FACTOR} × the run's median response time is a failure`, integer(1, 600_000)), DEFAULT_MAX_RESPONSE_TIME_MS),
  seed: option('--seed <n>', 'the seed of a run to replay (printed by every run)', integer(0, 2 ** 31 - 1)),
  json: option('--json <file>', 'also write the report as JSON'),
  junit,
  html: option('--html <file>', 'also write the report as one self-contained HTML page (plots included)'),
  timeout: withDefault(timeout, DEFAULT_CONFORM_TIMEOUT_MS),
  concurrency: withDefault(option('--concurrency <n>', 'requests in flight at most', integer(1, 256)), DEFAULT_CONCURRENCY),
  strict: flag('--strict', 'warnings (hazards the contract allows) fail the run too'),
};

export type ConformOptions = OptionValues<typeof CONFORM_OPTIONS>;

export const conform = specifyCommand({
  name: 'conform',
  description: 'conformance-test an implementation of the contract (the bundled openapi.yaml, or --contract) at any URL with requests generated from it',
  options: CONFORM_OPTIONS,
  help: `
Checks: ${CHECK_NAMES.join(', ')}.
Each finding is a failure (exit 1) or a warning: a hazard the contract allows, printed and reported,
failing the run only under --strict. Each is shown with a minimal request as a curl command that
reads the token from $TOKEN (and a --auth credential from PLANT_STORE_AUTH_<SCHEME>).
--auth <scheme>=<value> gives the credential of a security scheme of the contract (bearer, basic
user:password, apiKey, oauth2/openIdConnect access token); --header 'Name: value' adds a field to every
request. An operation none of whose security requirements the run has credentials for is listed as
not tested.
A progress bar is shown on a terminal, never under CI=true.
Exit codes: 0 the target kept the contract, 1 it broke it (or warned, under --strict), 2 bad usage or
the target could not be reached, 70 a defect of the kit (please report it).

Example:
  plant-store serve --port 3000 --token secret &
  plant-store conform --base-url http://127.0.0.1:3000 --token secret --junit conform.xml`,
});
