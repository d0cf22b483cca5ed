/**
 * The map's rows on time: a cost that grows with what the server holds. No RFC bounds a server's
 * time; these rows are the kit's rule beside the sections whose exchanges they time (the methods
 * that store, connections opened and closed, credentials presented): an implementation whose
 * every answer costs more with what it holds is one its users cannot run (docs/conform-engine.md,
 * "Time and capacity"). Each is judged against a bare control server read in the same rounds,
 * never against an absolute bound (oracle/checks/degradation.ts).
 */
import type { Requirement } from './requirement.js';
import { tested, type JudgeRow } from './rows.js';

/** What every growth row's judgement demands, in the words of oracle/checks/degradation.ts. */
const RISE =
  'rank statistics against a bare node:http control read in the same rounds, sent the same way: a rise is a Mann–Kendall z ≥ 3.09, falling clearly in neither half, the last quarter ≥ 1.5 × the first and 0.5 ms above it, and ≥ 1.5 × the control\'s rise (as a factor and in milliseconds); the coverage phase\'s readings are not judged';

/** A growth row's judgement: the readings, what they are set against, and the rule of a rise. */
const growth = (readings: string): JudgeRow => ({ check: 'degradation', how: `${readings}; ${RISE}.` });

export const TIME_REQUIREMENTS: readonly Requirement[] = [
  tested({
    id: '9110-9.3-cost-flat-in-requests-served',
    says: 'The kit\'s rule (no RFC bounds time): a request costs the same after thousands served as after the first; no work is left behind per request that later requests pay for.',
    provoke: { how: 'The canary: one valid request of the contract\'s first fillable operation (a plant stored before all others, replaced each time), sent alone 5 times in each round (every 150 ms at least), on the kept-alive connection, through every phase of a default run (about 7,000 requests).', tags: ['growth:canary'] },
    judge: growth('The fastest send of each round against the exchanges served before it'),
    faults: ['leaks-a-listener-per-request'],
  }),
  tested({
    id: '9110-9.3-cost-flat-in-entries-stored',
    says: 'The kit\'s rule: finding a stored resource costs the same whichever was stored when; a lookup does not walk the entries in order (the canary, stored first, is found at once by such a walk, so it cannot see it).',
    provoke: {
      how: 'During the capacity phase (5,000 distinct plants, the fill), in each round of the canary: a request about the plant stored last - its read through the contract\'s read of what the create stores (a link, else the collection/item pattern), else its create sent again (the same plant: a replacement) - 5 times alone, on the kept-alive connection.',
      tags: ['growth:entries', 'capacity:fill'],
    },
    judge: growth('The fastest send of each round against the plants stored by then'),
    faults: ['scans-rows-in-insertion-order'],
  }),
  tested({
    id: '9112-9.6-cost-flat-in-connections-served',
    says: 'The kit\'s rule: a new connection costs the same after a thousand closed as after the first; nothing kept of a closed connection is walked on each new one (a cost the canary, on one kept-alive connection, never pays).',
    provoke: { how: 'In each round of the canary: the canary on a connection of its own (`Connection: close`, opened for it and closed after it), 5 times alone, while the capacity phase opens one connection in four for its plants (about 1,400 in a default run).', tags: ['growth:connections'] },
    judge: growth('The fastest send of each round, its connect included, against the connections the run opened and closed before it; the control is sent on a fresh connection too'),
    faults: ['walks-every-connection-served'],
  }),
  tested({
    id: '9110-11.6.2-cost-flat-in-clients-seen',
    says: 'The kit\'s rule: a client\'s request costs the same after hundreds of other clients presented their credentials as before; what is kept per client (a session, a rate limit, a cached verdict on a token) is not walked on each request.',
    provoke: {
      how: 'In each round of the canary, 16 requests with credentials no request presented before - for each scheme the operation\'s requirement names, the run\'s own credential made distinct, in the scheme\'s own place (an Authorization line, an API key\'s header, query parameter or cookie; basic changes the user): about 600 clients in a default run, each refused with 401 by a target that does not know them. None under the mock profile.',
      tags: ['growth:sessions', 'growth:canary'],
    },
    judge: growth("The canary's readings (the client that came first), against the exchanges served, which grow with the clients presented"),
    faults: ['walks-every-session'],
  }),
  tested({
    id: '9110-9.3-stores-thousands',
    says: 'The kit\'s rule: a store that accepts a resource keeps accepting them by the thousand (or refuses with a declared 4xx), and keeps serving connections after thousands closed.',
    provoke: { how: 'The capacity phase: 5,000 distinct small valid plants, one in four on a connection of its own, then the earliest tenth replaced and a sample read back where the contract has a read.', tags: ['capacity:fill'] },
    judge: { check: 'no-server-error', how: 'Every answer of the fill: a 5xx, a reset or a connection refused is a failure (accepts-valid fails a refused valid plant).' },
    faults: ['full-at-1000-plants', 'leaks-a-descriptor-per-connection'],
  }),
  tested({
    id: '9110-15-answers-in-bounded-time',
    says: 'The kit\'s rule: no answer takes longer than the larger of --max-response-time (1 s) and 10 × the run\'s median, whatever the input (a regular expression that backtracks on some names).',
    provoke: { how: 'Every request of the run; the random phase sends backtracking-prone strings (16 to 30 units for exponential patterns, 10,000 to 20,000 for quadratic ones) in every run.', tags: [] },
    judge: { check: 'response-time', how: 'An answer over the bound is a finding only when its request, replayed alone after the phases, is over it again twice in a row; a random-phase request is then shrunk, re-timed at each step.' },
    faults: ['backtracking-name-classifier'],
  }),
];
