/** What `plant-store start` does (its options are cli/start.ts): serve's and mock's runs, side by side. */
import type { StartedServer } from '../../api/index.js';
import type { Io } from '../command.js';
import { HELD, type Outcome } from '../outcome.js';
import type { StartOptions } from '../start.js';
import { describeBehaviour, startMockServer } from './mock.js';
import { contractLines, answeredOutside, journalLine, startReferenceServer, uncheckedLines, untilSignal, type StartedReference } from './serve.js';

export async function runStart(options: StartOptions, io: Io): Promise<Outcome> {
  // Each log line is labelled, so the two request logs can be told apart.
  const reference = startReferenceServer(options, '[reference] ');
  const mock = startMockServer({ ...options, port: options.mockPort }, '--mock-port', '[mock]      ');
  const [started, mocked] = await Promise.allSettled([reference, mock]);
  if (started.status === 'rejected' || mocked.status === 'rejected') {
    // One came up and the other did not: stop the one that did, then say why.
    if (started.status === 'fulfilled') await started.value.server.close();
    if (mocked.status === 'fulfilled') await mocked.value.close();
    throw started.status === 'rejected' ? started.reason : (mocked as PromiseRejectedResult).reason;
  }
  io.out(banner(started.value, mocked.value, options));
  await untilSignal();
  await Promise.all([started.value.server.close(), mocked.value.close()]);
  return HELD;
}

function indent(text: string): string {
  return text.replace(/^(?=.)/gm, '  ');
}

function banner(reference: StartedReference, mock: StartedServer, options: StartOptions): string {
  const { url, token } = reference.server;
  return (
    `Plant Store Kit is up.\n` +
    `  reference implementation  ${url}${options.cors ? ', CORS on' : ''}\n` +
    `    token: ${token}${reference.generated ? ' (generated; choose one with --token or PLANT_STORE_TOKENS)' : ''}\n` +
    indent(contractLines(options.contract, url, token, answeredOutside(options.contract))) +
    indent(journalLine(url, options)) +
    `  mock (Prism)              ${mock.url}, answering ${describeBehaviour(options)}\n` +
    `    token: the same, or any well-formed bearer token\n` +
    // The contract and what it leaves unchecked are named once, above.
    indent(contractLines(options.contract, mock.url, token).replace(/^ {2}contract: .*\n/, '').replace(uncheckedLines(options.contract), '')) +
    indent(journalLine(mock.url, { ...options, journal: true })) +
    `Ctrl-C stops both.\n`
  );
}
