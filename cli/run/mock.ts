/** What `plant-store mock` does (its options and help are cli/mock.ts); `start` starts the mock with it too. */
import { startMock, type Contract, type StartedServer } from '../../api/index.js';
import { unwritableAnswers } from '../../mock/index.js';
import type { Io } from '../command.js';
import { credentialsFor } from '../options.js';
import { MOCK_EXAMPLE_TOKEN, type MockBehaviour, type MockCliOptions } from '../mock.js';
import { HELD, type Outcome } from '../outcome.js';
import { planRefusals } from '../../src/http/index.js';
import { commandLog, contractLines, explainListenError, journalLine, logged, untilSignal } from './serve.js';

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
      credentials: credentialsFor(options.auth, options.contract),
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

/** The answers the mock cannot write (mock/keep-contract.ts): named, never a reason to refuse the contract. */
function unwritableLine(contract: Contract): string {
  const answers = unwritableAnswers(contract.operations);
  return answers.length === 0 ? '' : `  answered with an empty document of its type where no other type is accepted (no text example, and Prism writes none of this media type from a schema; not checked): ${answers.join(', ')}\n`;
}

export async function runMock(options: MockCliOptions, io: Io): Promise<Outcome> {
  const server = await startMockServer(options, '--port');
  io.out(
    `Plant Store mock (Prism) listening on ${server.url}, answering ${describeBehaviour(options)}\n` +
      `  token: any well-formed bearer token, e.g. ${server.token}\n` +
      contractLines(options.contract, server.url, server.token, { examples: [], generated: [], invalid: [], refusals: planRefusals(options.contract).notes }) +
      unwritableLine(options.contract) +
      journalLine(server.url, { ...options, journal: true }),
  );
  await untilSignal();
  await server.close();
  return HELD;
}
