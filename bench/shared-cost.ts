/**
 * The bench's figures of the shared store (issue 31), from the rounds bench.ts ran: each of
 * shared-1, -2 and -4 against the reference in memory (`quiet`), and what Redis adds to one request
 * - the server CPU, the wall time per request at the workload's connections, the p50 of one
 * exchange at a time, Redis's own CPU - then the Redis round trips per request kind, counted
 * (round-trips.ts): the bench mix on shared-1, and every kind of a collection/item pattern on a
 * shared reference of the full store started for it.
 */
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { fixed } from './report.js';
import { countRoundTrips, fullStoreProbes, type Probe, type RoundTripFigure } from './round-trips.js';
import { median, pairedDifference, pairedRatio, table, type RoundFigures, type Target } from './stats.js';
import { referenceTarget, ROOT, startTarget, type RunningTarget } from './targets.js';
import { BENCH_MIX } from './workload.js';

/** Requests of each kind whose round trips are counted. */
const COUNTED = 50;

export interface SharedStoreCost {
  readonly targets: Target[];
  readonly roundTrips: RoundTripFigure[];
}

interface CostInput {
  readonly of: (name: string) => RoundFigures[];
  readonly runs: readonly { readonly target: string; readonly redisCpuUsPerRequest?: number }[];
  readonly connections: number;
  readonly single: { readonly quiet: string; readonly 'shared-1': string };
  readonly running: readonly RunningTarget[];
  readonly redis: Redis | undefined;
  readonly redisUrl: string | undefined;
}

function costTargets({ of, runs, connections, single }: CostInput): Target[] {
  const targets: Target[] = [];
  const quiet = of('quiet');
  const present = (name: string): boolean => of(name).length > 0;
  for (const workers of [1, 2, 4]) {
    const name = `shared-${String(workers)}`;
    if (present(name) && quiet.length > 0) targets.push({ name: `${name} (Redis, ${String(workers)} worker${workers > 1 ? 's' : ''}) / quiet (in memory), req/s`, value: pairedRatio(of(name), quiet, (r) => r.requestsPerSecond) });
    const redisCpu = runs.flatMap((run) => (run.target === name && run.redisCpuUsPerRequest !== undefined ? [run.redisCpuUsPerRequest] : []));
    if (redisCpu.length > 0) targets.push({ name: `${name}: Redis's own CPU, µs per request`, value: median(redisCpu) });
  }
  if (present('shared-1') && quiet.length > 0) {
    targets.push({ name: 'shared-1 - quiet: server CPU, µs per request', value: pairedDifference(of('shared-1'), quiet, (r) => r.cpuUsPerRequest) });
    targets.push({ name: `shared-1 - quiet: wall time, µs per request at ${String(connections)} connections`, value: pairedDifference(of('shared-1'), quiet, (r) => 1e6 / r.requestsPerSecond) });
    if (of(single['shared-1']).length > 0) {
      targets.push({ name: 'shared-1 - quiet: p50 µs added, 1 connection', value: pairedDifference(of(single['shared-1']), of(single.quiet), (r) => r.p50Ms * 1000) });
      targets.push({ name: 'shared-1 - quiet: wall time, µs per request at 1 connection', value: pairedDifference(of(single['shared-1']), of(single.quiet), (r) => 1e6 / r.requestsPerSecond) });
    }
  }
  return targets;
}

/** The bench mix's kinds, each sent as it is. */
function mixProbes(): Probe[] {
  return BENCH_MIX.map((kind) => ({ name: `bench mix: ${kind.name} (${String(kind.expect)})`, method: kind.method, path: () => kind.path, body: () => kind.body, headers: kind.headers }));
}

async function roundTrips(redis: Redis, redisUrl: string, shared: RunningTarget): Promise<RoundTripFigure[]> {
  const session = `bench-round-trips-${Date.now().toString(36)}`;
  const figures = await countRoundTrips(redis, shared.url, mixProbes(), COUNTED, session);
  const full = await startTarget(referenceTarget({ name: 'shared-full', quiet: true, contract: join(ROOT, 'examples', 'contracts', 'plant-store-full.yaml'), store: redisUrl }));
  try {
    figures.push(...(await countRoundTrips(redis, full.url, fullStoreProbes().map((probe) => ({ ...probe, name: `full store: ${probe.name}` })), COUNTED, session)));
    await fetch(`${full.url}/__plant-store/store?session=${session}`, { method: 'DELETE' }).then((answer) => answer.arrayBuffer());
  } finally {
    await full.stop();
  }
  await fetch(`${shared.url}/__plant-store/store?session=${session}`, { method: 'DELETE' }).then((answer) => answer.arrayBuffer());
  return figures;
}

export async function sharedStoreCost(input: CostInput): Promise<SharedStoreCost> {
  const targets = costTargets(input);
  const shared = input.running.find((target) => target.name === 'shared-1');
  if (input.redis === undefined || input.redisUrl === undefined || shared === undefined) return { targets, roundTrips: [] };
  process.stdout.write(`Redis round trips per request (the reference's own commands in INFO commandstats; ${String(COUNTED)} requests of each kind, one at a time):\n`);
  const figures = await roundTrips(input.redis, input.redisUrl, shared);
  process.stdout.write(
    table(
      ['request kind', 'statuses', 'round trips', 'commands in scripts', 'each command per request'],
      figures.map((f) => [f.kind, Object.entries(f.statuses).map(([status, n]) => `${status}×${String(n)}`).join(' '), fixed(f.perRequest, 2), fixed(f.inScripts, 2), Object.entries(f.commands).map(([name, n]) => `${name} ${fixed(n, 2)}`).join(', ')]),
    ) + '\n\n',
  );
  // The mix's round trips per request on average: what the differences above are divided by.
  const mix = figures.filter((f) => f.kind.startsWith('bench mix: '));
  const trips = mix.reduce((sum, f) => sum + f.perRequest, 0) / mix.length;
  const perTrip = (name: string): Target[] => {
    const found = targets.find((t) => t.name === name);
    return found === undefined || !(trips > 0) ? [] : [{ name: `${name.replace(/ per request/, ' per Redis round trip')} (the mix: ${fixed(trips, 2)} a request)`, value: found.value / trips }];
  };
  targets.push(...perTrip('shared-1 - quiet: wall time, µs per request at 1 connection'), ...perTrip('shared-1 - quiet: server CPU, µs per request'));
  return { targets, roundTrips: figures };
}
