/**
 * `plant-store start` (what `npm start` runs): the reference implementation and, beside it, the
 * Prism mock of openapi.yaml, in one process - Prism runs in it as a library, so Ctrl-C leaves
 * nothing behind. It takes serve's options and mock's, and --mock-port.
 */
import { defineCommand, type OptionValues } from './command.js';
import type { StartedServer } from '../api/servers.js';
import { describeBehaviour, MOCK_BEHAVIOUR_OPTIONS, startMockServer } from './mock.js';
import { flag, port, withDefault } from './options.js';
import { HELD } from './outcome.js';
import { contractLines, fromExamples, journalLine, REFERENCE_OPTIONS, startReferenceServer, untilSignal, type StartedReference } from './serve.js';

const START_OPTIONS = {
  ...REFERENCE_OPTIONS,
  // A page served by a dev server calls both side by side: CORS is on for the reference too (as on the mock) unless turned off.
  cors: flag('--no-cors', 'the reference answers without CORS (on by default here, as on the mock, so a page on another origin can call both)'),
  mockPort: withDefault({ ...port, flags: '--mock-port <port>', description: 'port of the mock (0 picks a free one)' }, 4010),
  ...MOCK_BEHAVIOUR_OPTIONS,
};

export const start = defineCommand({
  name: 'start',
  description: 'run the reference implementation and the mock side by side (npm start)',
  options: START_OPTIONS,
  async run(options, io) {
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
  },
});

function indent(text: string): string {
  return text.replace(/^(?=.)/gm, '  ');
}

function banner(reference: StartedReference, mock: StartedServer, options: OptionValues<typeof START_OPTIONS>): string {
  const { url, token } = reference.server;
  return (
    `Plant Store Kit is up.\n` +
    `  reference implementation  ${url}${options.cors ? ', CORS on' : ''}\n` +
    `    token: ${token}${reference.generated ? ' (generated; choose one with --token or PLANT_STORE_TOKENS)' : ''}\n` +
    indent(contractLines(options.contract, url, token, fromExamples(options.contract))) +
    indent(journalLine(url, options)) +
    `  mock (Prism)              ${mock.url}, answering ${describeBehaviour(options)}\n` +
    `    token: the same, or any well-formed bearer token\n` +
    indent(contractLines(options.contract, mock.url, token).replace(/^ {2}contract: .*\n/, '')) +
    indent(journalLine(mock.url, { ...options, journal: true })) +
    `Ctrl-C stops both.\n`
  );
}
