/** `plant-store serve`: the reference implementation on a socket. */
import { startReference, type StartedServer } from '../api/servers.js';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_DEPTH, requestLog, type RequestLog } from '../src/http/index.js';
import { defaultContractFile, type Contract } from '../src/openapi/index.js';
import { DEFAULT_MAX_ENTRIES, planReference } from '../src/reference/index.js';
import { defineCommand, type OptionValues } from './command.js';
import { acceptedTokens, admin, contract, describeContract, flag, host, integer, journalSize, option, port, quiet, withDefault } from './options.js';
import { HELD, UsageError } from './outcome.js';

/** serve's options; `start` takes them too. */
export const REFERENCE_OPTIONS = {
  contract,
  port: withDefault(port, 3000),
  host,
  token: acceptedTokens,
  maxBodyBytes: withDefault(option('--max-body-bytes <n>', 'largest request body accepted', integer(1, 2 ** 30)), DEFAULT_MAX_BODY_BYTES),
  maxDepth: withDefault(option('--max-depth <n>', 'deepest nesting of arrays and objects accepted', integer(1, 10_000)), DEFAULT_MAX_DEPTH),
  maxEntries: withDefault(option('--max-entries <n>', 'plants kept in memory; the oldest is forgotten beyond this', integer(1, 100_000_000)), DEFAULT_MAX_ENTRIES),
  cors: flag('--cors', 'let pages on other origins call it, as the mock does: CORS preflights get 204, every answer is readable (WWW-Authenticate included)'),
  journal: flag('--journal', 'keep a request journal (off by default: it holds bodies), read at /__plant-store/requests'),
  journalSize,
  admin,
  quiet,
};

export type ServeOptions = OptionValues<typeof REFERENCE_OPTIONS>;

export interface StartedReference {
  readonly server: StartedServer;
  /** Whether the token was generated (none was configured). */
  readonly generated: boolean;
}

/**
 * The request log of a command, unless --quiet: on standard output, each line after `label`.
 * Written off the request path (src/http/request-log.ts); `logged` ties it to the server's close.
 */
export function commandLog(quiet: boolean, label = ''): RequestLog | undefined {
  return quiet ? undefined : requestLog({ label });
}

/** The server, whose close() also writes out the rest of its log: no line is lost on SIGTERM. */
export function logged(server: StartedServer, log: RequestLog | undefined): StartedServer {
  if (log === undefined) return server;
  let closing: Promise<void> | undefined;
  return { url: server.url, token: server.token, close: () => (closing ??= server.close().finally(() => log.close())) };
}

/** Starts the reference server from command-line options; a taken port rejects with a clear message. `label` goes before each log line. */
export async function startReferenceServer(options: ServeOptions, label = ''): Promise<StartedReference> {
  const log = commandLog(options.quiet, label);
  try {
    const server = await startReference({
      port: options.port,
      host: options.host,
      tokens: options.token,
      maxBodyBytes: options.maxBodyBytes,
      maxDepth: options.maxDepth,
      maxEntries: options.maxEntries,
      cors: options.cors,
      journal: options.journal,
      journalSize: options.journalSize,
      admin: options.admin,
      contract: options.contract,
      ...(log ? { log: log.line } : {}),
    });
    return { server: logged(server, log), generated: options.token.length === 0 };
  } catch (error) {
    await log?.close();
    throw explainListenError(error, options, '--port');
  }
}

/** A port in use or an address that is not local is the user's to fix (exit 2); `flag` names the option. */
export function explainListenError(error: unknown, where: { port: number; host: string }, flag: string): unknown {
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  if (code === 'EADDRINUSE') return new UsageError(`port ${where.port} on ${where.host} is already in use; pick another with ${flag}`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new UsageError(`cannot listen on ${where.host}: no such local address`);
  return error;
}

/** The banner's line on the journal, when it can be read: the live page and the JSON. */
export function journalLine(url: string, options: { readonly journal: boolean; readonly journalSize: number; readonly admin: boolean }): string {
  if (!options.journal || !options.admin) return '';
  return `  journal: ${url}/__plant-store/ (live page; the last ${String(options.journalSize)} requests as JSON at ${url}/__plant-store/requests)\n`;
}

/**
 * The banner's lines on the contract: its title, version and file; with a contract of the user's,
 * its operations (those answered from examples named, when `examples` is given) rather than the
 * kit's curl example.
 */
export function contractLines(given: Contract, url: string, token: string, examples?: readonly string[]): string {
  const lines = `  contract: ${describeContract(given)}\n`;
  if (given.file === defaultContractFile()) return `${lines}  try:   ${curlExample(url, token)}\n`;
  const operations = `  operations: ${given.operations.map((operation) => `${operation.method} ${operation.path}`).join(', ')}\n`;
  return lines + operations + (examples === undefined || examples.length === 0 ? '' : `  answered from the contract's examples (outside the collection/item pattern): ${examples.join(', ')}\n`);
}

export function curlExample(url: string, token: string): string {
  return `curl -sS -X POST ${url}/plants -H 'Authorization: Bearer ${token}' -H 'Content-Type: application/json' -d '{"name":"Monstera","id":1,"tag":"tropical"}'`;
}

/** The operations the reference answers from the contract's examples, as `METHOD /path`. */
export function fromExamples(given: Contract): string[] {
  return planReference(given).fromExamples.map((operation) => `${operation.method} ${operation.path}`);
}

/** Resolves when the process is asked to stop (SIGINT or SIGTERM). */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export const serve = defineCommand({
  name: 'serve',
  description: 'run the reference implementation of the contract (stateful for its collection/item pattern)',
  options: REFERENCE_OPTIONS,
  help: `
With no --token and no PLANT_STORE_TOKENS, a random token is generated and printed: the server is never open to everyone.
One log line per request goes to standard output (method, path, status, time; never credentials).
With --journal the last requests, each with its verdict and answer, are kept: GET /__plant-store/requests
(JSON; DELETE clears it) and a live page at /__plant-store/. Credentials are masked in it.
SIGINT or SIGTERM stop it gracefully: requests in flight finish.`,
  async run(options, io) {
    const { server, generated } = await startReferenceServer(options);
    io.out(
      `Plant Store reference implementation listening on ${server.url}${options.cors ? ' (CORS on: pages on any origin may call it)' : ''}\n` +
        `  token: ${server.token}${generated ? ' (generated; choose one with --token or PLANT_STORE_TOKENS)' : ''}\n` +
        contractLines(options.contract, server.url, server.token, fromExamples(options.contract)) +
        journalLine(server.url, options),
    );
    await untilSignal();
    await server.close();
    return HELD;
  },
});
