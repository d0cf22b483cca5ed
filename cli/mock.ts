/** `plant-store mock`: Prism serving openapi.yaml behind the kit's request pipeline. What it does is cli/run/mock.ts. */
import { InvalidArgumentError } from 'commander';
import { MAX_DELAY_MS } from '../mock/index.js';
import type { Contract } from '../src/openapi/index.js';
import { specifyCommand, type OptionValues } from './command.js';
import { admin, auth, contract, flag, type AuthOption, host, integer, journalSize, option, port, quiet, withDefault } from './options.js';

/** What the mock answers: examples or generated data, and how slowly. `start` takes these options too. */
export const MOCK_BEHAVIOUR_OPTIONS = {
  dynamic: flag('--dynamic', "answer generated data (json-schema-faker) instead of the contract's examples"),
  seed: option('--seed <seed>', 'seed of the generated data and of the delays picked from ranges (Prefer: delay=100-800): the same seed, the same run', (text) => {
    if (text.trim() === '') throw new InvalidArgumentError('a seed is a non-empty text');
    return text;
  }),
  delay: withDefault(option('--delay <ms>', 'simulated latency: every answer waits this long', integer(0, MAX_DELAY_MS)), 0),
};

export type MockBehaviour = OptionValues<typeof MOCK_BEHAVIOUR_OPTIONS>;

export interface MockCliOptions extends MockBehaviour {
  readonly contract: Contract;
  readonly port: number;
  readonly host: string;
  readonly quiet: boolean;
  readonly journalSize: number;
  readonly admin: boolean;
  readonly auth: AuthOption;
}

/** The mock accepts any well-formed bearer token; this one is printed in examples. */
export const MOCK_EXAMPLE_TOKEN = 'any-token';

export const mock = specifyCommand({
  name: 'mock',
  description: 'run the Prism mock of the contract (the bundled openapi.yaml, or --contract); any well-formed bearer token is accepted',
  options: { contract, port: withDefault(port, 4010), host, auth, ...MOCK_BEHAVIOUR_OPTIONS, journalSize, admin, quiet },
  help: `
Per request, the header Prefer chooses the answer (Prism's Prefer):
  Prefer: code=401                       the declared 401 Error
  Prefer: code=200, example=withoutTag   a named example
  Prefer: dynamic=true, seed=abc         generated data
and how it goes out (the mock's own, outside the contract: only when asked):
  Prefer: delay=300                      300 ms late (delay=100-800: a delay in that range)
  Prefer: fault=reset                    the connection is reset (also timeout, garbage, truncated)
  (a delay over 600000 ms or a fault it does not know is ignored, as RFC 7240 asks)
Invalid requests get the same 4xx Error as from the reference implementation. CORS is on for browsers.
A security scheme given --auth <scheme>=<value> (or PLANT_STORE_AUTH_<SCHEME>) accepts exactly those credentials;
any other accepts any well-formed credential of its type.
The last requests, each with its verdict and answer, are kept: GET /__plant-store/requests (JSON;
DELETE clears it) and a live page at /__plant-store/. Credentials are masked in it.
One log line per request goes to standard output. SIGINT or SIGTERM stop it.`,
});
