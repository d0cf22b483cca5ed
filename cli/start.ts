/**
 * `plant-store start` (what `npm start` runs): the reference implementation and, beside it, the
 * Prism mock of openapi.yaml, in one process - Prism runs in it as a library, so Ctrl-C leaves
 * nothing behind. It takes serve's options and mock's, and --mock-port. What it does is cli/run/start.ts.
 */
import { specifyCommand, type OptionValues } from './command.js';
import { MOCK_BEHAVIOUR_OPTIONS } from './mock.js';
import { flag, port, withDefault } from './options.js';
import { REFERENCE_OPTIONS } from './serve.js';

const START_OPTIONS = {
  ...REFERENCE_OPTIONS,
  // A page served by a dev server calls both side by side: CORS is on for the reference too (as on the mock) unless turned off.
  cors: flag('--no-cors', 'the reference answers without CORS (on by default here, as on the mock, so a page on another origin can call both)'),
  mockPort: withDefault({ ...port, flags: '--mock-port <port>', description: 'port of the mock (0 picks a free one)' }, 4010),
  ...MOCK_BEHAVIOUR_OPTIONS,
};

export type StartOptions = OptionValues<typeof START_OPTIONS>;

export const start = specifyCommand({
  name: 'start',
  description: 'run the reference implementation and the mock side by side (npm start)',
  options: START_OPTIONS,
});
