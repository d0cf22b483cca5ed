/**
 * Late bytes: bytes a connection carried after an answer was complete (a second answer, the rest of
 * a body longer than its Content-Length), or while it sat idle. They belong to the exchange the
 * connection carried last, and are reported with its outcome.
 */
import { ResponseReader } from './http-wire.js';
import type { ExtraBytes, HttpOutcome } from '../../oracle/index.js';

/** Extra bytes kept for messages. */
const EXTRA_KEPT = 512;
/** How long bytes on an idle connection are collected before they are reported. */
export const STRAY_WINDOW_MS = 20;

/** Whether bytes on an idle connection are a 408 the server sent before closing it (RFC 9110, section 15.5.9): a goodbye, not late bytes. */
export function isGoodbye(bytes: Buffer): boolean {
  try {
    const reader = new ResponseReader({ method: 'GET', maxBodyBytes: 64 * 1024 });
    reader.push(bytes);
    reader.end();
    return reader.complete && reader.head?.status === 408 && reader.rest.length === 0;
  } catch {
    return false;
  }
}

/** The bytes as the wire facts keep them: the first EXTRA_KEPT, and how many there were. */
export function extraOf(chunks: readonly Buffer[], afterMs: number, seen: ExtraBytes['seen']): ExtraBytes {
  const all = Buffer.concat(chunks);
  return { bytes: Uint8Array.from(all.subarray(0, EXTRA_KEPT)), length: all.length, afterMs, seen };
}

/** An outcome with late bytes added to what the client saw. */
export function withExtra(outcome: HttpOutcome, extra: ExtraBytes): HttpOutcome {
  if (outcome.kind !== 'response' || outcome.wire === undefined) return outcome;
  return { ...outcome, wire: { ...outcome.wire, extraBytes: extra } };
}
