/** `plant-store mock`: Prism serving openapi.yaml behind the kit's request pipeline. */
import { InvalidArgumentError } from 'commander';
import { startMock, type StartedServer } from '../api/servers.js';
import { defineCommand, type OptionValues } from './command.js';
import { MAX_DELAY_MS } from '../mock/index.js';
import { admin, contract, flag, host, integer, journalSize, option, port, quiet, withDefault } from './options.js';
import type { Contract } from '../src/openapi/index.js';
import { HELD } from './outcome.js';
import { commandLog, contractLines, explainListenError, journalLine, logged, untilSignal } from './serve.js';

/** What the mock answers: examples or generated data, and how slowly. `start` takes these options too. */
export const MOCK_BEHAVIOUR_OPTIONS = {
  dynamic: flag('--dynamic', 'answer generated data (json-schema-faker) instead of the examples in openapi.yaml'),
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
}

/** The mock accepts any well-formed bearer token; this one is printed in examples. */
export const MOCK_EXAMPLE_TOKEN = 'any-token';

/** Starts the mock on a socket; a taken port rejects with a usage error naming `portFlag`. `label` goes before each log line. */
export async function startMockServer(options: MockCliOptions, portFlag: string, label = ''): Promise<StartedServer> {
  const log = commandLog(options.quiet, label);
  try {
    const server = await startMock({
      port: options.port,
      host: options.host,
      token: MOCK_EXAMPLE_TOKEN,
      dynamic: options.dynamic,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      delayMs: options.delay,
      journalSize: options.journalSize,
      admin: options.admin,
      contract: options.contract,
      ...(log ? { log: log.line } : {}),
    });
    return logged(server, log);
  } catch (error) {
    await log?.close();
    throw explainListenError(error, options, portFlag);
  }
}

/** One line on what the mock answers, for the start-up banner. */
export function describeBehaviour(options: MockBehaviour): string {
  const data = options.dynamic ? `generated data${options.seed === undefined ? '' : ` (seed ${options.seed})`}` : "the contract's examples";
  return `${data}${options.delay > 0 ? `, ${options.delay} ms latency` : ''}`;
}

export const mock = defineCommand({
  name: 'mock',
  description: 'run the Prism mock of openapi.yaml (any well-formed bearer token is accepted)',
  options: { contract, port: withDefault(port, 4010), host, ...MOCK_BEHAVIOUR_OPTIONS, journalSize, admin, quiet },
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
The last requests, each with its verdict and answer, are kept: GET /__plant-store/requests (JSON;
DELETE clears it) and a live page at /__plant-store/. Credentials are masked in it.
One log line per request goes to standard output. SIGINT or SIGTERM stop it.`,
  async run(options, io) {
    const server = await startMockServer(options, '--port');
    io.out(
      `Plant Store mock (Prism) listening on ${server.url}, answering ${describeBehaviour(options)}\n` +
        `  token: any well-formed bearer token, e.g. ${server.token}\n` +
        contractLines(options.contract, server.url, server.token) +
        journalLine(server.url, { ...options, journal: true }),
    );
    await untilSignal();
    await server.close();
    return HELD;
  },
});
