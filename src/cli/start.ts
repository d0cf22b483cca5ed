/**
 * `plant-store start` (what `npm start` runs): the reference implementation and, beside it,
 * the Prism mock of openapi.yaml.
 */
import { Command } from 'commander';
import { curlExample, referenceOptions, startReference, type ServeOptions } from './serve.js';
import { untilSignal } from './options.js';

export function startCommand(): Command {
  return referenceOptions(new Command('start').description('run the reference implementation and the mock side by side (npm start)'), 3000).action(
    async (options: ServeOptions) => {
      const { running, token, generated } = await startReference(options);
      process.stdout.write(
        `Plant Store Kit is up.\n` +
          `  reference implementation: ${running.url}\n` +
          `  token: ${token}${generated ? ' (generated; choose one with --token or PLANT_STORE_TOKENS)' : ''}\n` +
          `  try: ${curlExample(running.url, token)}\n` +
          `Ctrl-C stops it.\n`,
      );
      await untilSignal();
      await running.close();
    },
  );
}
