/**
 * Faulty implementations that break only when requests overlap at the server, or are pipelined on
 * one connection: caught by the overlap phase (fuzz/run/overlap.ts), since the other phases seldom
 * have two requests in flight at a fast target at once, never pipeline, and never write one
 * resource twice at once.
 */
import type { Server, ServerResponse } from 'node:http';
import { stringifyJson, type JsonObject, type JsonValue } from '../../src/openapi/index.js';
import type { AppResponse } from '../../src/reference/index.js';
import type { CheckName } from '../../fuzz/index.js';
import { errorResponse, objectBodyOf, responseObject, withBody } from './helpers.js';
import { startFaulty } from '../support/servers.js';
import { CAREFUL_LAYER, insertsMs, startRawStore } from './raw-store.js';

/** Requests the server has begun (their head read) and not yet answered. */
function countOpen(server: Server, open: { count: number }): void {
  server.on('request', (_request, response) => {
    open.count++;
    response.on('close', () => {
      open.count--;
    });
  });
}

function write(res: ServerResponse, answer: AppResponse): void {
  res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
  res.end(answer.body);
}

/**
 * A create that checks whether the id exists, awaits the database (5 ms), then inserts a new row
 * or updates the old one: writes of a new id in flight together all find none, and every insert
 * after the first hits the primary key.
 */
function checkThenInsert(): Promise<{ readonly url: string; close(): Promise<void> }> {
  const rows = new Set<string>();
  return startFaulty((request, correct) => {
    const id = objectBodyOf(request)?.id;
    if (id === undefined || request.method !== 'POST') return correct();
    const key = stringifyJson(id);
    const existed = rows.has(key);
    return (res: ServerResponse) => {
      setTimeout(() => {
        if (!existed && rows.has(key)) {
          write(res, errorResponse(500, 'duplicate key value violates unique constraint "plants_pkey"'));
          return;
        }
        const answer = correct();
        if (answer.status === 200) rows.add(key);
        write(res, answer);
      }, 5);
    };
  });
}

/**
 * A replacement written field by field and read back: the name at once, the tag after an await
 * on its own table (10 ms; an untagged plant's tag row is deleted after 1 ms), then the row as it
 * is answered. Writes of one id in flight together leave one's name with another's tag, and the
 * answers show that mix.
 */
function fieldByField(): Promise<{ readonly url: string; close(): Promise<void> }> {
  const rows = new Map<string, { name?: JsonValue | undefined; tag?: JsonValue | undefined }>();
  return startFaulty((request, correct) => {
    const answer = correct();
    const sent = objectBodyOf(request);
    const plant = answer.status === 200 ? responseObject(answer) : undefined;
    if (sent?.id === undefined || plant === undefined) return answer;
    const key = stringifyJson(sent.id);
    const row = rows.get(key) ?? {};
    rows.set(key, row);
    row.name = sent.name;
    const tagged = Object.hasOwn(sent, 'tag');
    return (res: ServerResponse) => {
      setTimeout(
        () => {
          if (tagged) row.tag = sent.tag;
          else delete row.tag;
          const read: JsonObject = { ...plant, name: row.name ?? null };
          delete read.tag;
          write(res, withBody(answer, row.tag === undefined ? read : { ...read, tag: row.tag }));
        },
        tagged ? 10 : 1,
      );
    };
  });
}

/** As faults.ts's FaultyImplementation (not imported from there: faults.ts imports this file). */
interface OverlapFault {
  readonly name: string;
  readonly caughtBy: CheckName;
  /** The other checks the defect breaks too; the run must break no other. */
  readonly touches?: readonly CheckName[];
  readonly defect: string;
  start(): Promise<{ readonly url: string; close(): Promise<void> }>;
}

export const OVERLAP_FAULTS: readonly OverlapFault[] = [
  {
    name: 'busy-when-overlapped',
    caughtBy: 'no-server-error',
    defect: 'a store guarding its single database handle answers 503 "busy" to any request that arrives while another is in flight, instead of queueing it',
    start: () => {
      const open = { count: 0 };
      return startFaulty(
        (_request, correct) => (open.count > 1 ? errorResponse(503, 'busy: another request is in flight') : correct()),
        {},
        (server) => {
          countOpen(server, open);
        },
      );
    },
  },
  {
    name: 'drops-pipelined-requests',
    caughtBy: 'no-server-error',
    touches: [],
    defect: 'a hand-written HTTP layer on raw sockets empties its buffer after each request it reads: a request pipelined behind another on the connection (RFC 9112, section 9.3.2) is never answered, and the connection stays open',
    start: () => startRawStore({ ...CAREFUL_LAYER, bytesAfterRequest: 'dropped' }),
  },
  {
    name: 'answers-pipelined-out-of-order',
    caughtBy: 'one-answer-per-request',
    touches: [],
    defect: 'a hand-written HTTP layer on raw sockets writes each answer as soon as its store write is done (10 ms for a tagged plant, 5 ms for an untagged one): pipelined requests get their answers out of order (RFC 9112, section 9.3.2: a server MUST answer in the order of the requests)',
    start: () => startRawStore({ ...CAREFUL_LAYER, answerOrder: 'completion', storeMs: insertsMs }),
  },
  {
    name: 'check-then-insert-race',
    caughtBy: 'no-server-error',
    // A 500 is no status the contract declares.
    touches: ['status-declared'],
    defect: 'a create checks whether the id exists, awaits the database, then inserts: two writes of a new id in flight together both find none, and the second insert breaks the primary key with a 500',
    start: checkThenInsert,
  },
  {
    name: 'replaces-field-by-field',
    caughtBy: 'echo',
    touches: [],
    defect: 'a replacement is written field by field (the name, then the tag in a table of its own, after an await) and the row read back for the answer: writes of one id in flight together answer one\'s name with another\'s tag',
    start: fieldByField,
  },
];
