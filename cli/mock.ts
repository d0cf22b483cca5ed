/** `plant-store mock`: Prism serving openapi.yaml behind the kit's request pipeline. */
import { Command, InvalidArgumentError } from 'commander';
import { createMock, type Mock } from '../mock/index.js';
import { batchedLog, listen, type RunningServer } from '../src/http/index.js';
import { integerOption, portOption, untilSignal } from './options.js';
import { curlExample, explainListenError } from './serve.js';

/** What the mock answers: examples or generated data, and how slowly. Shared with `plant-store start`. */
export interface MockBehaviour {
  dynamic?: boolean;
  seed?: string;
  delay: number;
}

export interface MockCliOptions extends MockBehaviour {
  port: number;
  host: string;
  quiet?: boolean;
}

export interface StartedMock {
  readonly mock: Mock;
  readonly running: RunningServer;
}

/** The mock accepts any well-formed bearer token; this one is printed in examples. */
export const MOCK_EXAMPLE_TOKEN = 'any-token';

const MAX_DELAY_MS = 600_000;

function seedOption(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('a seed is a non-empty text');
  return value;
}

export function mockBehaviourOptions(command: Command): Command {
  return command
    .option('--dynamic', 'answer generated data (json-schema-faker) instead of the examples in openapi.yaml')
    .option('--seed <seed>', 'seed of the generated data: the same seed gives the same data, run after run', seedOption)
    .option('--delay <ms>', 'simulated latency: every answer waits this long', integerOption(0, MAX_DELAY_MS), 0);
}

/** Starts the mock on a socket; a taken port rejects with a usage error naming `portFlag`. */
export async function startMockServer(options: MockCliOptions, portFlag = '--port', write: (text: string) => void = (text) => process.stdout.write(text)): Promise<StartedMock> {
  const mock = await createMock({ dynamic: options.dynamic ?? false, seed: options.seed, delayMs: options.delay });
  const logger = options.quiet === true ? undefined : batchedLog(write);
  try {
    // Answers held back by --delay are not worth waiting for: a second after Ctrl-C they are cut.
    const running = await listen(mock, { port: options.port, host: options.host, shutdownGraceMs: 1_000, ...(logger ? { log: logger.log } : {}) });
    return { mock, running };
  } catch (error) {
    throw explainListenError(error, options, portFlag);
  }
}

/** One line on what the mock answers, for the start-up banner. */
export function describeBehaviour(options: MockBehaviour): string {
  const data = options.dynamic === true ? `generated data${options.seed === undefined ? '' : ` (seed ${options.seed})`}` : 'the examples of openapi.yaml';
  return `${data}${options.delay > 0 ? `, ${options.delay} ms latency` : ''}`;
}

export function mockCommand(): Command {
  return mockBehaviourOptions(
    new Command('mock')
      .description('run the Prism mock of openapi.yaml (any well-formed bearer token is accepted)')
      .option('--port <port>', 'port to listen on (0 picks a free one)', portOption, 4010)
      .option('--host <host>', 'address to listen on', '127.0.0.1'),
  )
    .option('--quiet', 'no request log')
    .addHelpText(
      'after',
      `
Per request, the header Prefer chooses the answer (Prism's Prefer):
  Prefer: code=401                       the declared 401 Error
  Prefer: code=200, example=withoutTag   a named example
  Prefer: dynamic=true, seed=abc         generated data
Invalid requests get the same 4xx Error as from the reference implementation. CORS is on for browsers.
One log line per request goes to standard output. SIGINT or SIGTERM stop it.`,
    )
    .action(async (options: MockCliOptions) => {
      const { running } = await startMockServer(options);
      process.stdout.write(
        `Plant Store mock (Prism) listening on ${running.url}, answering ${describeBehaviour(options)}\n` +
          `  token: any well-formed bearer token, e.g. ${MOCK_EXAMPLE_TOKEN}\n` +
          `  try:   ${curlExample(running.url, MOCK_EXAMPLE_TOKEN)}\n`,
      );
      await untilSignal();
      await running.close();
    });
}
