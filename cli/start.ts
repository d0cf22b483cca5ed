/**
 * `plant-store start` (what `npm start` runs): the reference implementation and, beside it, the
 * Prism mock of openapi.yaml, in one process - Prism runs in it as a library, so Ctrl-C leaves
 * nothing behind.
 */
import { Writable } from 'node:stream';
import { Command } from 'commander';
import { describeBehaviour, mockBehaviourOptions, startMockServer, type MockBehaviour, type StartedMock } from './mock.js';
import { portOption, untilSignal } from './options.js';
import { curlExample, referenceOptions, startReference, type ServeOptions, type StartedReference } from './serve.js';

interface StartOptions extends ServeOptions, MockBehaviour {
  mockPort: number;
}

/** Writes each line with a label, so the two request logs can be told apart. */
function labelled(label: string): (text: string) => void {
  return (text) => process.stdout.write(text.replace(/^(?=.)/gm, label));
}

function labelledStream(label: string): Writable {
  const write = labelled(label);
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      write(chunk.toString('utf8'));
      done();
    },
  });
}

export function startCommand(): Command {
  return mockBehaviourOptions(
    referenceOptions(new Command('start').description('run the reference implementation and the mock side by side (npm start)'), 3000).option(
      '--mock-port <port>',
      'port of the mock (0 picks a free one)',
      portOption,
      4010,
    ),
  ).action(async (options: StartOptions) => {
    const reference = startReference(options, labelledStream('[reference] '));
    const mock = startMockServer({ ...options, port: options.mockPort }, '--mock-port', labelled('[mock]      '));
    const [started, mocked] = await Promise.allSettled([reference, mock]);
    if (started.status === 'rejected' || mocked.status === 'rejected') {
      // One came up and the other did not: stop the one that did, then say why.
      for (const settled of [started, mocked]) if (settled.status === 'fulfilled') await settled.value.running.close();
      throw started.status === 'rejected' ? started.reason : (mocked as PromiseRejectedResult).reason;
    }
    process.stdout.write(banner(started.value, mocked.value, options));
    await untilSignal();
    await Promise.all([started.value.running.close(), mocked.value.running.close()]);
  });
}

function banner(reference: StartedReference, mock: StartedMock, options: StartOptions): string {
  const token = reference.token;
  return (
    `Plant Store Kit is up.\n` +
    `  reference implementation  ${reference.running.url}\n` +
    `    token: ${token}${reference.generated ? ' (generated; choose one with --token or PLANT_STORE_TOKENS)' : ''}\n` +
    `    try:   ${curlExample(reference.running.url, token)}\n` +
    `  mock (Prism)              ${mock.running.url}, answering ${describeBehaviour(options)}\n` +
    `    token: the same, or any well-formed bearer token\n` +
    `    try:   ${curlExample(mock.running.url, token)}\n` +
    `Ctrl-C stops both.\n`
  );
}
