/**
 * Faulty implementations of the conformance map's rows on time (oracle/requirements/time.ts): a
 * cost that grows with what the server holds - the entries it stores, the connections it has
 * served, the clients it has seen - each the way real servers get it: a list walked in order
 * where a map was needed. The canary alone (one kept-alive connection, a plant stored before all
 * others, one credential) sees none of them; the growth probes of its rounds do
 * (fuzz/run/canary.ts), and `degradation` judges them against the control.
 *
 * Each shows in time: `alone` (a process of its own), and `defaultRun` (its growth shows across a
 * default run's 5,000 plants, 1,400 connections and 600 clients, not the suite's 300).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';
import { exactInteger, isLosslessNumber } from '../../src/openapi/index.js';
import type { CheckName } from '../../fuzz/index.js';
import { startFaulty } from '../support/servers.js';
import type { FaultyImplementation } from './faults.js';
import { header, objectBodyOf } from './helpers.js';

/** A fault of this file: what the map's test reads (`name`, `caughtBy`) and the suite runs. */
export interface TimeFault extends FaultyImplementation {
  readonly caughtBy: CheckName;
  /** An endurance run's length (test/conformance/common.ts): a default run on a quiet machine ends before the canary has the readings a trend needs. */
  readonly durationMs: number;
}

const ENDURANCE_MS = 10_000;

const ALONE = "its defect is a trend of its times, which another implementation's load in the same process would blur";
const DEFAULT_RUN = "its cost grows with what a default run makes it hold (5,000 plants, 1,400 connections, 600 clients); the suite's budget holds too little";

/** The id of a request's plant, exactly, where its body names one. */
function requestId(value: unknown): bigint | undefined {
  return isLosslessNumber(value) ? exactInteger(value) : undefined;
}

/** A row: the plant's id as decimal text (so that an int64 stays exact) and the plant as stored, as JSON text. */
function rowOf(id: bigint, plant: string): string {
  return JSON.stringify({ id: id.toString(), plant });
}

function rowId(row: string): string {
  return (JSON.parse(row) as { id: string }).id;
}

/**
 * Plants kept as rows of JSON text in the order they came, with a set of their ids: the set says
 * at once whether a plant is new, but not where its row is, so a plant already stored is found by
 * parsing every row from the first until one has its id. A plant stored early is found at once
 * (the canary's), the newest after every other row.
 */
function scansRowsInOrder(): TimeFault {
  return {
    name: 'scans-rows-in-insertion-order',
    caughtBy: 'degradation',
    defect: 'plants are kept as rows of JSON text in the order they came (as an append-only file holds them), beside a set of their ids; the set says at once whether a plant is new, but a plant already stored is found by parsing the rows from the first until one has its id: finding it costs as many rows as were stored before it',
    alone: ALONE,
    defaultRun: DEFAULT_RUN,
    durationMs: ENDURANCE_MS,
    start: () => {
      const rows: string[] = [];
      const ids = new Set<bigint>();
      return startFaulty((request, correct) => {
        const id = requestId(objectBodyOf(request)?.id);
        if (id === undefined) return correct();
        const at = ids.has(id) ? rows.findIndex((row) => rowId(row) === id.toString()) : -1;
        const answer = correct();
        if (answer.status !== 200) return answer;
        if (at === -1) rows.push(rowOf(id, answer.body));
        else rows[at] = rowOf(id, answer.body);
        ids.add(id);
        return answer;
      });
    },
  };
}

/** A closed connection as the log keeps it, one line of JSON (what a metrics page shows). */
function connectionLine(socket: Socket, openedAt: number): string {
  const { remoteAddress, remotePort, remoteFamily, localAddress, localPort, bytesRead, bytesWritten } = socket;
  return JSON.stringify({ remoteAddress, remotePort, remoteFamily, localAddress, localPort, openedAt: new Date(openedAt).toISOString(), closedAt: new Date().toISOString(), bytesRead, bytesWritten });
}

/**
 * Every connection closed is logged as a line of JSON, and each new one counts the connections
 * its address opened in the last minute by reading the whole log: a connection costs as many
 * lines as there were connections before it.
 */
function walksEveryConnection(): TimeFault {
  return {
    name: 'walks-every-connection-served',
    caughtBy: 'degradation',
    defect: 'a per-address connection limit (10,000 a minute) keeps every closed connection in a log of JSON lines (the metrics page shows it), and on each new connection counts those its address opened in the last minute by parsing the whole log; lines are never dropped: each new connection costs one more line than the one before',
    alone: ALONE,
    defaultRun: DEFAULT_RUN,
    durationMs: ENDURANCE_MS,
    start: () =>
      startFaulty(
        (_request, correct) => correct(),
        {},
        (server) => {
          const log: string[] = [];
          server.on('connection', (socket: Socket) => {
            const now = Date.now();
            let recent = 0;
            for (const line of log) {
              const entry = JSON.parse(line) as { remoteAddress?: string; openedAt: string };
              if (entry.remoteAddress === socket.remoteAddress && now - Date.parse(entry.openedAt) < 60_000) recent++;
            }
            if (recent >= 10_000) socket.destroy();
            socket.on('close', () => log.push(connectionLine(socket, now)));
          });
        },
      ),
  };
}

/**
 * A session for every credential presented, kept as a salted hash (never the token itself), newest
 * first; a salted hash cannot be looked up, so each request hashes its credential with every
 * session's salt until one matches: the first client's requests cost one hash per client since.
 */
function walksEverySession(): TimeFault {
  const hash = (salt: Buffer, credential: string): Buffer => createHmac('sha256', salt).update(credential).digest();
  return {
    name: 'walks-every-session',
    caughtBy: 'degradation',
    defect: 'a session (for its rate limit) is opened for every Authorization value presented, before the credential is checked, and kept as a salted hash of it, newest first; a salted hash cannot be looked up, so every request hashes its credential with each session\'s salt in turn until one matches: a client that came early pays one hash for every client that came after it',
    alone: ALONE,
    defaultRun: DEFAULT_RUN,
    durationMs: ENDURANCE_MS,
    start: () => {
      const sessions: { readonly salt: Buffer; readonly digest: Buffer }[] = [];
      return startFaulty((request, correct) => {
        const credential = header(request, 'authorization');
        if (credential !== undefined && !sessions.some((s) => timingSafeEqual(hash(s.salt, credential), s.digest))) {
          const salt = randomBytes(16);
          sessions.unshift({ salt, digest: hash(salt, credential) });
        }
        return correct();
      });
    },
  };
}

export const MAP_TIME_FAULTS: readonly TimeFault[] = [scansRowsInOrder(), walksEveryConnection(), walksEverySession()];
