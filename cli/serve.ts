/** `plant-store serve`: the reference implementation on a socket. */
import { randomBytes } from 'node:crypto';
import { Command } from 'commander';
import { batchedLog, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_DEPTH, listen, type RunningServer } from '../src/http/index.js';
import { createApp, DEFAULT_MAX_ENTRIES } from '../src/reference/index.js';
import { collectToken, integerOption, portOption, tokensFromEnv, untilSignal, UsageError } from './options.js';

export interface ServeOptions {
  port: number;
  host: string;
  token?: string[];
  maxBodyBytes: number;
  maxDepth: number;
  maxEntries: number;
  quiet?: boolean;
}

export interface StartedReference {
  readonly running: RunningServer;
  readonly token: string;
  readonly generated: boolean;
}

/** Starts the reference server from command-line options; a taken port rejects with a clear message. */
export async function startReference(options: ServeOptions, out: NodeJS.WritableStream = process.stdout): Promise<StartedReference> {
  const configured = [...(options.token ?? []), ...tokensFromEnv()];
  // With no token configured the server is still closed: a random one is made and printed.
  const generated = configured.length === 0;
  const tokens = generated ? [randomBytes(18).toString('base64url')] : configured;
  const app = createApp({ tokens, maxBodyBytes: options.maxBodyBytes, maxDepth: options.maxDepth, maxEntries: options.maxEntries });
  const logger = options.quiet === true ? undefined : batchedLog((text) => out.write(text));
  try {
    const running = await listen(app, { port: options.port, host: options.host, ...(logger ? { log: logger.log } : {}) });
    return { running, token: tokens[0] as string, generated };
  } catch (error) {
    throw explainListenError(error, options, '--port');
  }
}

/** A port in use or an address that is not local is the user's to fix (exit 2); `flag` names the option. */
export function explainListenError(error: unknown, where: { port: number; host: string }, flag: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new UsageError(`port ${where.port} on ${where.host} is already in use; pick another with ${flag}`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new UsageError(`cannot listen on ${where.host}: no such local address`);
  return error;
}

export { UsageError };

export function curlExample(url: string, token: string): string {
  return `curl -sS -X POST ${url}/plants -H 'Authorization: Bearer ${token}' -H 'Content-Type: application/json' -d '{"name":"Monstera","id":1,"tag":"tropical"}'`;
}

export function referenceOptions(command: Command, defaultPort: number): Command {
  return command
    .option('--port <port>', 'port to listen on (0 picks a free one)', portOption, defaultPort)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--token <token>', 'accepted bearer token (repeatable; also PLANT_STORE_TOKENS, comma-separated)', collectToken)
    .option('--max-body-bytes <n>', 'largest request body accepted', integerOption(1, 2 ** 30), DEFAULT_MAX_BODY_BYTES)
    .option('--max-depth <n>', 'deepest nesting of arrays and objects accepted', integerOption(1, 10_000), DEFAULT_MAX_DEPTH)
    .option('--max-entries <n>', 'plants kept in memory; the oldest is forgotten beyond this', integerOption(1, 100_000_000), DEFAULT_MAX_ENTRIES)
    .option('--quiet', 'no request log');
}

export function serveCommand(): Command {
  return referenceOptions(new Command('serve').description('run the reference implementation of POST /plants'), 3000)
    .addHelpText('after', `
With no --token and no PLANT_STORE_TOKENS, a random token is generated and printed: the server is never open to everyone.
One log line per request goes to standard output (method, path, status, time; never credentials).
SIGINT or SIGTERM stop it gracefully: requests in flight finish.`)
    .action(async (options: ServeOptions) => {
      const { running, token, generated } = await startReference(options);
      process.stdout.write(
        `Plant Store reference implementation listening on ${running.url}\n` +
          `  token: ${token}${generated ? ' (generated; choose one with --token or PLANT_STORE_TOKENS)' : ''}\n` +
          `  try:   ${curlExample(running.url, token)}\n`,
      );
      await untilSignal();
      await running.close();
    });
}
