/**
 * `npm run soak`: the reference implementation under sustained mixed traffic, then beside
 * hundreds of slow clients. Exits 1 when a criterion fails, 2 when the soak itself could not run.
 *
 *   npm run soak -- [--duration 60] [--connections 64] [--max-entries 20000]
 *                   [--slow-clients 300] [--slow-interval 100] [--slow-seconds 10]
 *                   [--normal-connections 16] [--sample-every 10]
 *   npm run soak -- --store redis://host:port/db [--contract <file>] [--duration 60] [--connections 64] [--seed <n>]
 *
 * Every flag also reads an environment variable (SOAK_DURATION, SOAK_CONNECTIONS, ...: the flag
 * name in upper case with SOAK_ in front); a quick smoke run: `npm run soak -- --duration 10`.
 *
 * Criteria:
 *  1. no 5xx, no connection error and no timeout under load;
 *  2. every sampled answer passes the conformance engine's checks and says what the reference must
 *     (checks.ts);
 *  3. resident memory stays under a ceiling set by --max-entries, and does not keep growing once
 *     the store is full;
 *  4. while the slow clients trickle their headers, normal clients are still served: no errors,
 *     at least half the throughput they had without the slow clients;
 *  5. afterwards the server still answers (an exact int64 echo) and stops cleanly on SIGTERM.
 *
 * With --store (SOAK_STORE), the shared store's soak instead (shared-soak.ts): two `serve --store`
 * processes of --contract (default examples/contracts/plant-store-full.yaml) on that Redis, every
 * write through one read through the other; it fails unless there is no mismatch, no 5xx and no
 * connection failure, and both stop cleanly.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type autocannon from 'autocannon';
import { loadContract } from '../src/openapi/index.js';
import { judgeSoakExchange, type SoakExchange } from './verdict.js';
import { runLoad, type LoadResult } from './load.js';
import { describeMachine, fixed, machine, runMain, sleep, exitWithUsage, writeResult } from './report.js';
import type { SlowReport } from './slow-clients.js';
import { median, slope } from './stats.js';
import { referenceTarget, residentBytes, ROOT, startTarget, type RunningTarget } from './targets.js';
import { sharedSoak, sharedSoakLines } from './shared-soak.js';
import { BENCH_MIX, checkWorkload, idSequence, JSON_AUTH, overLimitKind, PATH, soakExtras, toRequests, type Kind } from './workload.js';

const FLAGS = {
  duration: 60,
  connections: 64,
  'max-entries': 20_000,
  'max-body-bytes': 16_384,
  'slow-clients': 300,
  'slow-interval': 100,
  'slow-seconds': 10,
  'normal-connections': 16,
  'sample-every': 10,
} as const;
type Flag = keyof typeof FLAGS;

const given = (() => {
  try {
    return parseArgs({
      options: { ...(Object.fromEntries(Object.keys(FLAGS).map((name) => [name, { type: 'string' }])) as Record<Flag, { type: 'string' }>), store: { type: 'string' }, contract: { type: 'string' }, seed: { type: 'string' } },
      strict: true,
    }).values;
  } catch (error) {
    return exitWithUsage('soak', error);
  }
})();

/** A flag, else its SOAK_* environment variable, else the default; a positive number. */
function setting(name: Flag): number {
  const text = given[name] ?? process.env[`SOAK_${name.toUpperCase().replace(/-/g, '_')}`];
  if (text === undefined) return FLAGS[name];
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) exitWithUsage('soak', `--${name} must be a positive number, got ${text}`);
  return value;
}

const config = Object.fromEntries(Object.keys(FLAGS).map((name) => [name, setting(name as Flag)])) as Record<Flag, number>;
const MiB = 2 ** 20;
/** Generous for one stored plant (key, Map entry, object, strings, the exact id): several times what one takes. */
const BYTES_PER_ENTRY = 2048;
/** Room for V8's heap to grow and shrink around the live data (young generation, fragmentation). */
const HEADROOM_BYTES = 128 * MiB;

interface Criterion {
  readonly name: string;
  readonly held: boolean;
  readonly detail: string;
}

/** Tallies contract violations, keeping a few whole examples. */
class Violations {
  readonly counts: Record<string, number> = {};
  readonly examples: { kind: string; status: number; body: string; violations: string[] }[] = [];
  checked = 0;

  record(exchange: SoakExchange, violations: readonly string[]): void {
    this.checked++;
    for (const v of violations) {
      const check = v.split(':', 1)[0] ?? v;
      this.counts[check] = (this.counts[check] ?? 0) + 1;
    }
    if (violations.length > 0 && this.examples.length < 10) this.examples.push({ kind: exchange.kind.name, status: exchange.status, body: exchange.body.slice(0, 300), violations: [...violations] });
  }

  get total(): number {
    return Object.values(this.counts).reduce((a, b) => a + b, 0);
  }
}

/** A valid NewPlant with a new id on every request: the store fills, then forgets the oldest. */
interface DynamicKind {
  readonly kind: Kind;
  readonly build: (id: string, counter: number) => string;
}

function dynamicKind(name: string, build: (id: string, counter: number) => string): DynamicKind {
  return { kind: { name, method: 'POST', path: PATH, headers: JSON_AUTH, body: build('1', 0), expect: 200, validNewPlant: true, label: 'valid', credentials: 'valid' }, build };
}

async function send(url: string, kind: Kind, body: string | Buffer = kind.body): Promise<SoakExchange & { headersObject: Record<string, string> }> {
  const response = await fetch(url + kind.path, { method: kind.method, headers: kind.headers, ...(kind.method === 'GET' ? {} : { body }) });
  const headers = Object.fromEntries(response.headers.entries());
  return { kind, sentBody: body.toString(), status: response.status, headers, headersObject: headers, body: await response.text() };
}

function statusesOf(result: LoadResult): string {
  return Object.entries(result.statuses)
    .map(([status, count]) => `${status}×${count}`)
    .join(' ');
}

/** The shared store's soak (--store): two processes on one Redis, every write read through the other. */
async function mainShared(store: string): Promise<number> {
  if (!/^rediss?:\/\/./.test(store)) exitWithUsage('soak', `--store must be a redis:// URL, got ${store}`);
  const contractFile = given.contract ?? process.env.SOAK_CONTRACT ?? join(ROOT, 'examples', 'contracts', 'plant-store-full.yaml');
  const seedText = given.seed ?? process.env.SOAK_SEED;
  const seed = seedText === undefined ? Date.now() % 2 ** 31 : Number(seedText);
  if (!Number.isInteger(seed)) exitWithUsage('soak', `--seed must be an integer, got ${seedText ?? ''}`);
  const host = machine();
  process.stdout.write(`Plant Store Kit soak of the shared store, ${new Date().toISOString()}\nmachine: ${describeMachine(host)}\n`);
  process.stdout.write(`settings: --store ${store} --contract ${contractFile} --duration ${config.duration} --connections ${config.connections} --seed ${seed}\n`);
  const figures = await sharedSoak({ store, contractFile, contract: loadContract(contractFile), durationSeconds: config.duration, connections: config.connections, seed, write: (text) => process.stdout.write(text) });
  process.stdout.write(sharedSoakLines(figures));
  const criteria: Criterion[] = [
    { name: 'every write read through the other process as acknowledged', held: figures.mismatches === 0 && figures.crossReads > 0, detail: `${figures.crossReads} reads across under load, ${figures.finalSweep.reads} at the end, ${figures.mismatches} mismatches` },
    { name: 'no 5xx, no connection failure', held: figures.serverErrors === 0 && figures.failures === 0, detail: `${figures.serverErrors} 5xx, ${figures.failures} failures` },
    { name: 'both processes stop cleanly on SIGTERM', held: figures.exitCodes.every((code) => code === 0), detail: `exit codes ${figures.exitCodes.join(', ')}` },
  ];
  process.stdout.write('\n');
  for (const c of criteria) process.stdout.write(`${c.held ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}\n`);
  const file = writeResult('soak', { kind: 'soak-shared', date: new Date().toISOString(), command: `npm run soak -- ${process.argv.slice(2).join(' ')}`.trim(), machine: { ...host, loadAverageAfter: machine().loadAverage }, settings: { store, contractFile, seed, duration: config.duration, connections: config.connections }, figures, criteria });
  process.stdout.write(`\nload average after: ${machine().loadAverage.join(' ')}\nresult: ${file}\n`);
  return criteria.every((c) => c.held) ? 0 : 1;
}

async function main(): Promise<number> {
  const store = given.store ?? process.env.SOAK_STORE;
  if (store !== undefined && store !== '' && store !== 'memory') return mainShared(store);
  const contract = loadContract();
  const nextId = idSequence();
  const dynamic = [
    dynamicKind('unique-id', (id, n) => `{"name":"Monstera ${n}","id":${id},"tag":"soak"}`),
    dynamicKind('unique-id-no-tag', (id, n) => `{"name":"Fern ${n}","id":${id}}`),
  ];
  const mix: Kind[] = [...dynamic.map((d) => d.kind), ...BENCH_MIX, ...soakExtras(64)];
  checkWorkload(mix);
  // The generated bodies must be valid NewPlants by the contract too.
  checkWorkload(dynamic.map((d, i) => ({ ...d.kind, body: d.build(nextId(), i) })));
  const overLimit = overLimitKind(config['max-body-bytes']);

  const host = machine();
  process.stdout.write(`Plant Store Kit soak, ${new Date().toISOString()}\nmachine: ${describeMachine(host)}\n`);
  process.stdout.write(`settings: ${Object.entries(config).map(([k, v]) => `--${k} ${v}`).join(' ')}\n`);
  process.stdout.write(`mix: ${mix.map((k) => k.name).join(', ')}; beside it, ${overLimit.name} on its own connections\n`);

  const server: RunningTarget = await startTarget(referenceTarget({ maxEntries: config['max-entries'], maxBodyBytes: config['max-body-bytes'], quiet: true }));
  const criteria: Criterion[] = [];
  const violations = new Violations();
  let slowChild: ReturnType<typeof fork> | undefined;
  try {
    const idleRss = residentBytes(server.pid) ?? Number.NaN;
    process.stdout.write(`reference ${server.url} (pid ${server.pid}), idle RSS ${fixed(idleRss / MiB)} MiB\n`);
    for (const kind of mix) {
      const exchange = await send(server.url, kind, kind.body);
      const problems = judgeSoakExchange(exchange, contract);
      if (problems.length > 0) throw new Error(`${kind.name} before the soak: ${problems.join('; ')}`);
    }

    // 1-3. Sustained mixed load, answers sampled and checked, memory sampled every second.
    let storedUnique = 0;
    let storeFullAt: number | undefined;
    const perKind = new Map<string, number>();
    const requests: autocannon.Request[] = toRequests(mix).map((request, index) => {
      const kind = mix[index] as Kind;
      const generated = dynamic.find((d) => d.kind === kind);
      let counter = 0;
      return {
        ...request,
        ...(generated
          ? {
              setupRequest: (req: autocannon.Request, context: Record<string, unknown>) => {
                const body = generated.build(nextId(), counter++);
                context[kind.name] = body;
                return { ...req, body };
              },
            }
          : {}),
        onResponse: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string | string[]>) => {
          if (generated && status === 200 && ++storedUnique >= config['max-entries']) storeFullAt ??= performance.now();
          const seen = (perKind.get(kind.name) ?? 0) + 1;
          perKind.set(kind.name, seen);
          if (seen % config['sample-every'] !== 0 && status < 500) return;
          const sent = context[kind.name];
          const exchange: SoakExchange = { kind, status, headers, body, ...(typeof sent === 'string' ? { sentBody: sent } : {}) };
          violations.record(exchange, judgeSoakExchange(exchange, contract));
        },
      };
    });

    const rss: { t: number; bytes: number }[] = [];
    const started = performance.now();
    const sampler = setInterval(() => {
      const bytes = residentBytes(server.pid);
      if (bytes !== undefined) rss.push({ t: (performance.now() - started) / 1000, bytes });
    }, 1000);
    const probes = { running: true, sent: 0, violations: 0, failures: 0 };
    const prober = (async () => {
      while (probes.running) {
        try {
          const exchange = await send(server.url, overLimit);
          probes.sent++;
          const problems = judgeSoakExchange(exchange, contract);
          violations.record(exchange, problems);
          if (problems.length > 0) probes.violations++;
        } catch {
          probes.failures++;
        }
        await sleep(500);
      }
    })();
    process.stdout.write(`\nsustained load: ${config.connections} connections for ${config.duration} s...\n`);
    const main = await runLoad({ url: server.url, connections: config.connections, durationSeconds: config.duration, requests, timeoutSeconds: 10 });
    probes.running = false;
    await prober;
    clearInterval(sampler);
    const fullAfter = storeFullAt === undefined ? undefined : (storeFullAt - started) / 1000;

    const whole = main.perSecond.slice(1, -1);
    const fiveXx = Object.entries(main.statuses).filter(([s]) => Number(s) >= 500).reduce((a, [, n]) => a + n, 0);
    const connectionErrors = Object.values(main.errors).reduce((a, b) => a + b, 0);
    process.stdout.write(
      `  ${main.responses} answers in ${main.durationSeconds} s = ${fixed(main.requestsPerSecond, 0)} req/s, p50 ${fixed(main.p50Ms, 2)} ms, p99 ${fixed(main.p99Ms, 2)} ms, max ${fixed(main.maxMs, 1)} ms\n` +
        `  statuses ${statusesOf(main)}; errors ${JSON.stringify(main.errors)}, timeouts ${main.timeouts}\n` +
        `  answers per whole second (the first and last are partial and left out): min ${Math.min(...whole)}, median ${median(whole)}, max ${Math.max(...whole)}\n` +
        `  ${storedUnique} new plants stored; the store (--max-entries ${config['max-entries']}) was full after ${fullAfter === undefined ? 'never' : `${fixed(fullAfter)} s`}\n` +
        `  over-limit bodies on their own connections: ${probes.sent} sent, ${probes.violations} outside the contract, ${probes.failures} failed\n`,
    );
    criteria.push({ name: 'no 5xx, no connection error, no timeout under load', held: fiveXx === 0 && connectionErrors === 0 && main.timeouts === 0 && probes.failures === 0, detail: `${fiveXx} 5xx, ${connectionErrors} errors, ${main.timeouts} timeouts, ${probes.failures} failed probes` });

    // Memory: a hard ceiling from the store's limit, and no growth once the store is full.
    const peak = Math.max(...rss.map((s) => s.bytes));
    const ceiling = idleRss + config['max-entries'] * BYTES_PER_ENTRY + HEADROOM_BYTES;
    const afterFull = fullAfter === undefined ? [] : rss.filter((s) => s.t >= fullAfter);
    const lastQuarter = rss.filter((s) => s.t >= config.duration * 0.75);
    const growthPerMinute = slope(afterFull.map((s) => ({ x: s.t / 60, y: s.bytes / MiB })));
    const settled = afterFull.length >= 10 ? Math.max(...afterFull.slice(0, Math.ceil(afterFull.length / 2)).map((s) => s.bytes)) : Number.NaN;
    const late = lastQuarter.length > 0 ? Math.max(...lastQuarter.map((s) => s.bytes)) : Number.NaN;
    process.stdout.write(
      `  RSS: idle ${fixed(idleRss / MiB)} MiB, peak ${fixed(peak / MiB)} MiB (ceiling ${fixed(ceiling / MiB)} MiB), at the end ${fixed((rss.at(-1)?.bytes ?? Number.NaN) / MiB)} MiB; ` +
        `after the store filled: trend ${fixed(growthPerMinute)} MiB/min, peak of the first half ${fixed(settled / MiB)} MiB, of the last quarter of the run ${fixed(late / MiB)} MiB\n`,
    );
    criteria.push({ name: 'resident memory under the ceiling set by --max-entries', held: peak <= ceiling, detail: `peak ${fixed(peak / MiB)} MiB <= ${fixed(ceiling / MiB)} MiB (idle + ${config['max-entries']} × ${BYTES_PER_ENTRY} B + ${HEADROOM_BYTES / MiB} MiB)` });
    if (Number.isNaN(settled)) {
      criteria.push({ name: 'resident memory stops growing once the store is full', held: true, detail: 'not judged: the store filled too late in the run for a trend (lower --max-entries or raise --duration)' });
    } else {
      // GC makes RSS a saw-tooth; a leak shows as the late peak climbing well above the settled one.
      const held = late <= settled * 1.25 + 16 * MiB;
      criteria.push({ name: 'resident memory stops growing once the store is full', held, detail: `last-quarter peak ${fixed(late / MiB)} MiB <= 1.25 × ${fixed(settled / MiB)} MiB + 16 MiB` });
    }
    criteria.push({
      name: "every sampled answer passes the conformance engine's checks and is what the reference must answer",
      held: violations.total === 0 && violations.checked > 0,
      detail: `${violations.checked} answers checked (1 in ${config['sample-every']} per request kind, every over-limit probe, every 5xx), ${violations.total} violations${violations.total > 0 ? ` ${JSON.stringify(violations.counts)}` : ''}`,
    });

    // 4. Slow clients: the same normal clients without, then with, hundreds of trickling connections.
    const normal = toRequests(BENCH_MIX);
    const seconds = config['slow-seconds'];
    process.stdout.write(`\nslow clients: ${config['normal-connections']} normal connections for ${seconds} s alone, then beside ${config['slow-clients']} connections sending their headers one byte per ${config['slow-interval']} ms each...\n`);
    const alone = await runLoad({ url: server.url, connections: config['normal-connections'], durationSeconds: seconds, requests: normal });
    const port = new URL(server.url).port;
    const child = fork(join(fileURLToPath(new URL('.', import.meta.url)), 'slow-clients.js'), [port, String(config['slow-clients']), String(config['slow-interval'])], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    slowChild = child;
    let report: SlowReport | undefined;
    child.on('message', (message) => {
      report = message as SlowReport;
    });
    const waitUntil = performance.now() + 20_000;
    while ((report?.connected ?? 0) < config['slow-clients'] && performance.now() < waitUntil) await sleep(100);
    const openAtStart = report?.open ?? 0;
    const beside = await runLoad({ url: server.url, connections: config['normal-connections'], durationSeconds: seconds, requests: normal });
    const openAtEnd = report?.open ?? 0;
    await new Promise<void>((resolve) => {
      child.once('exit', () => {
        resolve();
      });
      child.send('stop');
    });
    slowChild = undefined;
    const finalReport = report;
    const slowFailures = beside.timeouts + Object.values(beside.errors).reduce((a, b) => a + b, 0);
    const keptUp = beside.requestsPerSecond / alone.requestsPerSecond;
    process.stdout.write(
      `  alone:  ${fixed(alone.requestsPerSecond, 0)} req/s, p50 ${fixed(alone.p50Ms, 2)} ms, p99 ${fixed(alone.p99Ms, 2)} ms, statuses ${statusesOf(alone)}\n` +
        `  beside: ${fixed(beside.requestsPerSecond, 0)} req/s, p50 ${fixed(beside.p50Ms, 2)} ms, p99 ${fixed(beside.p99Ms, 2)} ms, statuses ${statusesOf(beside)}; errors ${JSON.stringify(beside.errors)}, timeouts ${beside.timeouts}\n` +
        `  slow connections: ${finalReport?.connected ?? 0} connected, ${openAtStart} open when the normal clients started, ${openAtEnd} when they stopped; ` +
        `the server answered ${JSON.stringify(finalReport?.answered ?? {})} and closed ${finalReport?.closedByServer ?? 0} of them; ${finalReport?.bytesSent ?? 0} header bytes trickled\n`,
    );
    criteria.push({
      name: 'slow clients were really there',
      held: openAtStart >= config['slow-clients'] * 0.9,
      detail: `${openAtStart} of ${config['slow-clients']} open when the normal clients started`,
    });
    criteria.push({
      name: 'normal clients served beside the slow ones',
      held: slowFailures === 0 && keptUp >= 0.5 && (beside.statuses['500'] ?? 0) === 0,
      detail: `${fixed(keptUp, 2)} × the throughput without them (>= 0.5), ${slowFailures} errors and timeouts`,
    });

    // 5. Still answering, exactly, then a clean stop.
    const final = dynamic[0] as DynamicKind;
    const last = await send(server.url, final.kind, final.build('9007199254740993', 0));
    const lastProblems = judgeSoakExchange(last, contract);
    criteria.push({ name: 'the server still answers afterwards (id 9007199254740993 echoed exactly)', held: lastProblems.length === 0, detail: lastProblems.length === 0 ? `${last.status} ${last.body}` : lastProblems.join('; ') });
    const exitCode = await server.stop();
    criteria.push({ name: 'the server stops cleanly on SIGTERM', held: exitCode === 0, detail: `exit code ${exitCode}` });

    process.stdout.write('\n');
    for (const c of criteria) process.stdout.write(`${c.held ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}\n`);
    const file = writeResult('soak', {
      kind: 'soak',
      date: new Date().toISOString(),
      command: `npm run soak -- ${process.argv.slice(2).join(' ')}`.trim(),
      machine: { ...host, loadAverageAfter: machine().loadAverage },
      settings: config,
      mix: mix.map((k) => ({ name: k.name, expect: k.expect })),
      sustained: { ...main, storedUnique, storeFullAfterSeconds: fullAfter, probes },
      memory: { idleBytes: idleRss, peakBytes: peak, ceilingBytes: ceiling, growthMiBPerMinuteAfterFull: growthPerMinute, samples: rss },
      violations: { checked: violations.checked, counts: violations.counts, examples: violations.examples },
      slowClients: { alone, beside, openAtStart, openAtEnd, report: finalReport },
      criteria,
    });
    process.stdout.write(`\nload average after: ${machine().loadAverage.join(' ')}\nresult: ${file}\n`);
    return criteria.every((c) => c.held) ? 0 : 1;
  } finally {
    slowChild?.kill('SIGKILL');
    if (!server.exited) await server.stop();
  }
}

runMain('soak', main);
