/**
 * What `plant-store serve` does (its options and help are cli/serve.ts), and the pieces the other
 * servers' commands share with it: the request log, the banner's lines, a taken port as bad usage,
 * waiting for SIGINT or SIGTERM. Loaded when a server's command runs, never at start-up.
 */
import { startReference, type StartedServer } from '../../api/index.js';
import { planRefusals, requestLog, type RequestLog } from '../../src/http/index.js';
import { defaultContractFile, formatFeatures, type Contract, type OperationContract } from '../../src/openapi/index.js';
import { planReference, StoreUnreachable } from '../../src/reference/index.js';
import type { Io } from '../command.js';
import { describeContract } from '../describe-contract.js';
import { credentialsFor } from '../options.js';
import { HELD, usage, UsageError, type Outcome } from '../outcome.js';
import type { ServeCommandOptions, ServeOptions } from '../serve.js';
import { isWorker, leavePrimary, serveWorkers, tellPrimary } from './workers.js';

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
      store: options.store,
      cors: options.cors,
      journal: options.journal,
      journalSize: options.journalSize,
      admin: options.admin,
      contract: options.contract,
      credentials: credentialsFor(options.auth, options.contract),
      ...(log ? { log: log.line } : {}),
    });
    return { server: logged(server, log), generated: options.token.length === 0 };
  } catch (error) {
    await log?.close();
    if (error instanceof StoreUnreachable) throw new UsageError(`--store: ${error.message}; start it, or serve without --store (in memory)`);
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

/** How the reference answers the operations outside its collection/item pattern, each as `METHOD /path`. */
export interface AnsweredOutside {
  readonly examples: readonly string[];
  readonly generated: readonly string[];
  /** Of `generated`, those whose value the kit could not make valid. */
  readonly invalid: readonly string[];
  /** Those whose success's example breaks its own schema, so not answered with it. */
  readonly brokenExamples?: readonly string[];
  /** The error responses whose shape cannot carry a refusal's reason (src/http/refusals.ts), when given. */
  readonly refusals?: readonly string[];
}

/**
 * The banner's lines on the contract: its title, version and file; with a contract of the user's,
 * its operations (those answered from examples, and with generated values, named when `outside`
 * is given) rather than the kit's curl example.
 */
export function contractLines(given: Contract, url: string, token: string, outside?: AnsweredOutside): string {
  const lines = `  contract: ${describeContract(given)}\n${uncheckedLines(given)}`;
  if (given.file === defaultContractFile()) return `${lines}  try:   ${curlExample(url, token)}\n`;
  const operations = `  operations: ${given.operations.map((operation) => `${operation.method} ${operation.path}`).join(', ')}\n`;
  const named = (list: readonly string[] | undefined, what: string): string => (list === undefined || list.length === 0 ? '' : `  ${what}: ${list.join(', ')}\n`);
  return (
    lines +
    operations +
    named(outside?.examples, "answered from the contract's examples (outside the collection/item pattern)") +
    named(outside?.generated, 'answered with values generated from their schemas (no example; docs/reference-server.md)') +
    named(outside?.invalid, 'answered with a generated value the kit could not make valid') +
    named(outside?.brokenExamples, "not answered with the contract's example, which breaks its own schema") +
    named(outside?.refusals, "refusals in a shape that cannot take their reason (docs/contracts.md, \"Refusals in your contract's words\")")
  );
}

/** What the contract declares and the kit does not exercise or check, each feature once (refusal.ts's format). */
export function uncheckedLines(given: Contract): string {
  return given.unchecked.length === 0 ? '' : `  not exercised or checked (docs/contracts.md):\n${formatFeatures(given.unchecked, '    ')}\n`;
}

export function curlExample(url: string, token: string): string {
  return `curl -sS -X POST ${url}/plants -H 'Authorization: Bearer ${token}' -H 'Content-Type: application/json' -d '{"name":"Monstera","id":1,"tag":"tropical"}'`;
}

/** The operations the reference answers from the contract's examples and with generated values, as `METHOD /path`. */
export function answeredOutside(given: Contract): AnsweredOutside {
  const plan = planReference(given);
  const names = (operations: readonly OperationContract[]): string[] => operations.map((operation) => `${operation.method} ${operation.path}`);
  return { examples: names(plan.fromExamples), generated: names(plan.generated), invalid: names(plan.invalid), brokenExamples: names(plan.brokenExamples), refusals: planRefusals(given).notes };
}

/** The banner's line on a shared store (none for memory); the URL without its password. */
export function storeLine(store: string): string {
  return store === 'memory' ? '' : `  store: ${store.replace(/\/\/[^@/]*@/, '//***@')} (shared: every serve of this contract on it sees the same plants)\n`;
}

/**
 * Validators compiled per turn of the event loop: a request waits for one batch at most (a few
 * milliseconds), and a large contract's are all compiled within about a second of listening.
 */
const SCHEMAS_PER_TURN = 4;

/**
 * Compiles the validators the contract has not compiled yet, a few per turn once the server
 * listens (a request for an operation not reached yet compiles its own on the way). Resolves with
 * the refusal where a schema is one ajv cannot compile; never resolves otherwise.
 */
export function schemasRefused(contract: Contract): Promise<Error> {
  return new Promise((resolve) => {
    const turn = (): void => {
      try {
        if (contract.compileSchemas(SCHEMAS_PER_TURN) > 0) setImmediate(turn);
      } catch (error) {
        resolve(error instanceof Error ? error : new Error(String(error)));
      }
    };
    setImmediate(turn);
  });
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

export async function runServe(options: ServeCommandOptions, io: Io): Promise<Outcome> {
  if (options.workers > 1 && !isWorker()) return serveWorkers(options, io, { banner: (url, token, generated) => banner(options, url, token, generated, options.workers), untilSignal });
  const { server, generated } = await startReferenceServer(options);
  if (isWorker()) {
    // The primary prints the one banner (workers.ts); a worker says where it listens.
    tellPrimary(server.url);
  } else {
    io.out(banner(options, server.url, server.token, generated));
  }
  // The contract's schemas compile once it listens; one ajv cannot compile ends serve (exit 2).
  const refused = await Promise.race([untilSignal().then(() => undefined), schemasRefused(options.contract)]);
  await server.close();
  if (isWorker()) leavePrimary();
  return refused === undefined ? HELD : usage(refused.message);
}

/** serve's banner: where it listens, the token, the contract, the journal and the store. */
export function banner(options: ServeOptions, url: string, token: string, generated: boolean, workers = 1): string {
  return (
    `Plant Store reference implementation listening on ${url}${options.cors ? ' (CORS on: pages on any origin may call it)' : ''}${workers > 1 ? ` (${String(workers)} worker processes)` : ''}\n` +
    `  token: ${token}${generated ? ' (generated; choose one with --token or PLANT_STORE_TOKENS)' : ''}\n` +
    contractLines(options.contract, url, token, answeredOutside(options.contract)) +
    journalLine(url, options) +
    storeLine(options.store)
  );
}
