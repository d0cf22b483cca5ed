/**
 * The request log of the command line: one line per request, written to a file descriptor
 * (standard output) without blocking the answer. node writes process.stdout synchronously to a
 * file, a pipe or a terminal on Linux, so a write per request (or per turn of the event loop)
 * holds every answer behind the reader of the log. Here lines are gathered for up to
 * FLUSH_MS or BATCH_CHARS, then handed to sonic-boom (pino's writer), which writes them from a
 * thread of libuv's pool; lines that arrive while a write is under way go out with the next one.
 * Closing it writes what is left; so does the exit of the process.
 */
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import type { SonicBoom } from 'sonic-boom';

/**
 * sonic-boom, loaded when a log is first made: every command loads this module (the socket layer
 * formats its lines with requestLine), and only the servers' command lines write a log; loading
 * it takes milliseconds of every start-up (`--version` included) otherwise.
 */
const loadSonicBoom = (): typeof SonicBoom => (createRequire(import.meta.url)('sonic-boom') as { SonicBoom: typeof SonicBoom }).SonicBoom;

/** The longest a line waits before it is written: a person trying the server reads it at once. */
export const FLUSH_MS = 50;
/** Characters gathered before they are written without waiting (about 250 lines). */
const BATCH_CHARS = 16_384;

let lastMs = 0;
let lastStamp = '';

/**
 * One line of the log: when (ISO 8601, UTC), method, path, status (or `fault=…`) and the time
 * since `started` (performance.now()). The path only: a query string may carry an access_token
 * (RFC 6750, section 2.3).
 */
export function requestLine(method: string | undefined, url: string | undefined, status: number | string, started: number): string {
  const now = Date.now();
  // Many requests share a millisecond under load; its text is made once.
  if (now !== lastMs) {
    lastMs = now;
    lastStamp = new Date(now).toISOString();
  }
  const target = url ?? '-';
  const query = target.indexOf('?');
  return `${lastStamp} ${method ?? '-'} ${query === -1 ? target : target.slice(0, query)} ${status} ${milliseconds(performance.now() - started)}ms`;
}

/** `ms` with two decimals, as toFixed(2) writes it for a duration, in a fraction of its time (a line per request). */
export function milliseconds(ms: number): string {
  const hundredths = Math.round(Math.max(ms, 0) * 100);
  const fraction = hundredths % 100;
  return `${(hundredths - fraction) / 100}.${fraction < 10 ? '0' : ''}${fraction}`;
}

export interface RequestLog {
  /** Takes one line, without its newline; `label` (if any) goes before it. */
  readonly line: (text: string) => void;
  /**
   * Writes every line taken so far and resolves once they are out, closing the descriptor unless
   * it is 1 or 2; later lines are dropped. While another log on the same descriptor is open, its
   * lines are handed to the writer they share, which the last close() finishes.
   */
  close(): Promise<void>;
}

export interface RequestLogOptions {
  /** Where the lines go (default 1, standard output); the logs on it own it (see close()). */
  readonly fd?: number;
  /** Put before every line, e.g. `[mock] ` when two servers share one output. */
  readonly label?: string;
}

/**
 * One writer per descriptor, shared by the logs on it (`start` runs two servers): one write at a
 * time, so two logs' batches never interleave inside a line.
 */
interface Writer {
  readonly stream: SonicBoom;
  /** An output that cannot be written (a reader gone: EPIPE) ends the logs, never the server. */
  open: boolean;
  /** Each open log's flush, for the exit of the process. */
  readonly flushes: Set<() => void>;
}

const writers = new Map<number, Writer>();

function writerFor(fd: number): Writer {
  const existing = writers.get(fd);
  if (existing) return existing;
  const writer: Writer = { stream: new (loadSonicBoom())({ fd, sync: false }), open: true, flushes: new Set() };
  writer.stream.on('error', () => {
    writer.open = false;
  });
  // A process that ends with process.exit() (a crash, say) does not wait for the pool.
  const atExit = (): void => {
    if (!writer.open) return;
    try {
      for (const flush of writer.flushes) flush();
      writer.stream.flushSync();
    } catch {
      // Nothing more can be done for the log of a process that is ending.
    }
  };
  process.once('exit', atExit);
  writer.stream.once('close', () => process.off('exit', atExit));
  writers.set(fd, writer);
  return writer;
}

/** A log for as long as the process lives or until close(); lines still held at exit are written synchronously then. */
export function requestLog(options: RequestLogOptions = {}): RequestLog {
  const label = options.label ?? '';
  const fd = options.fd ?? 1;
  const writer = writerFor(fd);
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending === '' || !writer.open) return;
    writer.stream.write(pending);
    pending = '';
  };
  writer.flushes.add(flush);
  let closing: Promise<void> | undefined;
  return {
    line: (text) => {
      if (!writer.flushes.has(flush) || !writer.open) return;
      pending += `${label}${text}\n`;
      if (pending.length >= BATCH_CHARS) flush();
      // Unref'd: a log never keeps a process alive; close() and the exit write what it holds.
      else timer ??= setTimeout(flush, FLUSH_MS).unref();
    },
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        flush();
        writer.flushes.delete(flush);
        if (writer.flushes.size > 0) {
          resolve();
          return;
        }
        writers.delete(fd);
        // 'close' follows 'finish' once every byte is written; a failed write must not hold shutdown.
        writer.stream.once('close', resolve);
        writer.stream.once('error', () => {
          resolve();
        });
        writer.stream.end();
      })),
  };
}
