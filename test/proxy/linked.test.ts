/**
 * The proxy judges a read along the contract's links where it saw the create (oracle/
 * observed-links.ts), by the stateful checks of the engine: the engine's own sequences of the
 * example full store (generation/sequences.ts), sent through the proxy as a client would, one
 * request after the other. In front of the reference every read passes, judged; in front of the
 * faulty implementations of test/faulty/links.ts the read's answer names the check that catches
 * each in `conform`; the correct-but-unusual ones pass. What the proxy cannot know is not judged:
 * a read in another scope (token, session), a read while a write is in flight, after writes in
 * flight together, after a write the upstream failed or one of unknown effect.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { sequenceCase, walksOf, type SequenceShape } from '../../fuzz/generation/sequences.js';
import { createLinkMemory } from '../../oracle/observed-links.js';
import { classifyRequest } from '../../oracle/classify.js';
import type { RequestCase } from '../../oracle/types.js';
import { runConformance } from '../../fuzz/run/runner.js';
import type { CheckName, Report } from '../../fuzz/index.js';
import { listenProxy, type ProxiedExchange, type ProxySummary, type RunningProxy } from '../../proxy/index.js';
import { SESSION_HEADER, type OperationContract } from '../../src/openapi/index.js';
import { LINK_IMPLEMENTATIONS } from '../faulty/links.js';
import { fullStore } from '../support/contracts.js';
import { send, type WireResponse } from '../support/http.js';
import { startFaulty, startReference, TEST_TOKEN, type Fault } from '../support/servers.js';

const contract = fullStore();
const [walk] = walksOf(contract);
const STATEFUL = ['resource-available', 'deleted-stays-deleted', 'replacement-visible'];
/** The check a read after each shape of sequence is judged by. */
const JUDGED_BY: Record<SequenceShape, string> = { read: 'resource-available', 'delete-then-read': 'deleted-stays-deleted', 'replace-then-read': 'replacement-visible' };
const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closing.map((close) => close()));
});

/** A proxy with the full store in front of `upstream`, and every exchange it told. */
async function proxyFor(upstream: string): Promise<{ url: string; exchanges: ProxiedExchange[]; proxy: RunningProxy }> {
  const exchanges: ProxiedExchange[] = [];
  const proxy = await listenProxy({ upstream, port: 0, contract, tokens: [TEST_TOKEN, SECOND_TOKEN], onExchange: (exchange) => exchanges.push(exchange) });
  closing.push(() => proxy.close());
  return { url: proxy.url, exchanges, proxy };
}

/** A second token the upstreams accept, besides TEST_TOKEN. */
const SECOND_TOKEN = 'second-token';

async function upstreamWith(fault: Fault): Promise<string> {
  const server = await startFaulty(fault, { contract, tokens: [TEST_TOKEN, SECOND_TOKEN] });
  closing.push(() => server.close());
  return server.url;
}

/** An id beyond 2^53, so that a read rounding it is seen; another per sequence. */
let nextId = 9007199254740993n;
function sequence(shape: SequenceShape): RequestCase {
  if (walk === undefined) throw new Error('the example full store has no walk');
  const id = (nextId += 2n);
  return sequenceCase(contract, walk, shape, `{"name":"Fern","id":${id},"tag":"green"}`, '{"name":"Palm","tag":"dry"}', { token: TEST_TOKEN, profile: 'reference' });
}

function sendCase(url: string, request: RequestCase, headers: Readonly<Record<string, string>> = {}): Promise<WireResponse> {
  return send(url, { method: request.method, path: request.path, headers: { ...request.headers, ...headers }, body: request.body });
}

/** The sequence's requests one after the other, through the proxy; the read's answer. */
async function walkThrough(url: string, request: RequestCase): Promise<WireResponse> {
  for (const step of request.setup) await sendCase(url, step);
  return sendCase(url, request);
}

const SHAPES: readonly SequenceShape[] = ['read', 'delete-then-read', 'replace-then-read'];

describe('in front of the reference serving the example full store', () => {
  it.each(SHAPES)('the read after %s is judged by its check and passes; nothing else is found', async (shape) => {
    const proxy = await proxyFor((await startReference({ contract })).url);
    const answer = await walkThrough(proxy.url, sequence(shape));
    expect(answer.headers['plant-store-violations']).toBeUndefined();
    const read = proxy.exchanges.at(-1);
    expect(read?.judgedBy).toContain(JUDGED_BY[shape]);
    expect(proxy.exchanges.flatMap((exchange) => exchange.findings)).toEqual([]);
  });

  it('a read it saw no create for, or before any create, is judged by no stateful check', async () => {
    const proxy = await proxyFor((await startReference({ contract })).url);
    const created = sequence('read');
    await sendCase(proxy.url, created);
    await walkThrough(proxy.url, created);
    const [first, , second] = proxy.exchanges;
    expect(first?.judgedBy.filter((check) => STATEFUL.includes(check))).toEqual([]);
    expect(second?.judgedBy).toContain('resource-available');
  });
});

describe("conform's stateful phase through the proxy (its own concurrency): the proxy's stateful findings are conform's", () => {
  const failedIn = (report: Report): string[] => STATEFUL.filter((check) => report.failures.some((f) => f.check === check));
  const failedThrough = (summary: ProxySummary): string[] => STATEFUL.filter((check) => (summary.checks[check]?.failures ?? 0) > 0);

  it('in front of the reference: nothing found, every read the phase ends a sequence with judged', async () => {
    const proxy = await proxyFor((await startReference({ contract })).url);
    const report = await runConformance({ baseUrl: proxy.url, token: TEST_TOKEN, contract, seed: 11, phases: ['stateful'] });
    expect(report.failures).toEqual([]);
    expect(proxy.exchanges.flatMap((exchange) => exchange.findings)).toEqual([]);
    const judged = (check: string): number => proxy.exchanges.filter((exchange) => exchange.judgedBy.includes(check)).length;
    // At least: a later sequence's read may also be of a resource an earlier one made.
    for (const check of STATEFUL) expect(judged(check), check).toBeGreaterThanOrEqual(report.checks[check as CheckName].requests);
    expect(report.checks['resource-available'].requests).toBeGreaterThan(0);
  }, 60_000);

  it.each(LINK_IMPLEMENTATIONS.map((implementation) => [implementation.name, implementation] as const))('in front of %s', async (_name, implementation) => {
    const proxy = await proxyFor(await upstreamWith(implementation.fault(contract)));
    const report = await runConformance({ baseUrl: proxy.url, token: TEST_TOKEN, contract, seed: 5, phases: ['stateful'], shrinkTimeMs: 0 });
    expect(failedThrough(proxy.proxy.summary())).toEqual(failedIn(report));
    if (implementation.caughtBy !== undefined) expect(failedIn(report)).toContain(implementation.caughtBy);
  }, 60_000);
});

describe('in front of faulty implementations: the read names the check that catches them in conform', () => {
  const faulty = LINK_IMPLEMENTATIONS.filter((implementation) => implementation.caughtBy !== undefined);
  it.each(faulty.map((implementation) => [implementation.name, implementation] as const))('%s', async (_name, implementation) => {
    const proxy = await proxyFor(await upstreamWith(implementation.fault(contract)));
    const shape = (Object.keys(JUDGED_BY) as SequenceShape[]).find((s) => JUDGED_BY[s] === implementation.caughtBy) ?? 'read';
    const answer = await walkThrough(proxy.url, sequence(shape));
    expect(answer.headers['plant-store-violations']?.split(', ')).toContain(implementation.caughtBy);
    const finding = proxy.exchanges.at(-1)?.findings.find((f) => f.check === implementation.caughtBy);
    // The message names the exchanges the sequence was made of.
    expect(finding?.message).toMatch(/\(after addPlant 200 \(exchange 1\) → .*\)/);
    expect(finding?.severity).toBe('failure');
  });

  const unusual = LINK_IMPLEMENTATIONS.filter((implementation) => implementation.caughtBy === undefined);
  it.each(unusual.map((implementation) => [implementation.name, implementation] as const))('%s (correct but unusual) passes every stateful check', async (_name, implementation) => {
    const proxy = await proxyFor(await upstreamWith(implementation.fault(contract)));
    for (const shape of SHAPES) await walkThrough(proxy.url, sequence(shape));
    expect(proxy.exchanges.flatMap((exchange) => exchange.findings).filter((finding) => STATEFUL.includes(finding.check))).toEqual([]);
    expect(proxy.exchanges.some((exchange) => exchange.judgedBy.includes('resource-available'))).toBe(true);
  });
});

/**
 * The reference, but the first request of `operation` is applied at once and answered only when
 * the test releases it: a write still in flight at the proxy that the upstream has applied.
 */
async function holdingFirst(operation: OperationContract | undefined): Promise<{ url: string; applied: Promise<void>; release: () => void }> {
  let held = false;
  let applied: () => void = () => undefined;
  let release: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (applied = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const url = await upstreamWith((request, correct) => {
    const answer = correct();
    if (held || contract.findOperation(request.method, request.url) !== operation) return answer;
    held = true;
    applied();
    return (res: ServerResponse) => {
      void released.then(() => {
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
      });
    };
  });
  return { url, applied: arrived, release };
}

describe('what the proxy cannot know, it does not judge', () => {
  const readNotFound = LINK_IMPLEMENTATIONS.find((implementation) => implementation.name === 'read-404-after-create');

  it('a read with other credentials (both accepted) or in another session of the reference than the create', async () => {
    const proxy = await proxyFor(await upstreamWith(readNotFound?.fault(contract) ?? ((_request, correct) => correct())));
    const created = sequence('read');
    await walkThrough(proxy.url, created);
    await sendCase(proxy.url, created, { [SESSION_HEADER]: 'another' });
    await sendCase(proxy.url, created, { authorization: `Bearer ${SECOND_TOKEN}` });
    const [, linked, session, token] = proxy.exchanges;
    expect(linked?.findings.map((f) => f.check)).toContain('resource-available');
    for (const other of [session, token]) {
      expect(other?.outcome.kind === 'response' && other.outcome.status).toBe(404);
      expect(other?.judgedBy.filter((check) => STATEFUL.includes(check))).toEqual([]);
    }
  });

  it('a read while a delete is in flight (the upstream applied it, its answer is still on the way); judged once the delete is answered', async () => {
    const held = await holdingFirst(walk?.remove?.operation);
    const proxy = await proxyFor(held.url);
    const gone = sequence('delete-then-read');
    const [create, del] = gone.setup;
    if (create === undefined || del === undefined) throw new Error('a delete-then-read has two steps first');
    await sendCase(proxy.url, create);
    const deleting = sendCase(proxy.url, del);
    await held.applied;
    const during = await sendCase(proxy.url, gone);
    held.release();
    await deleting;
    const after = await sendCase(proxy.url, gone);
    expect(during.status).toBe(404);
    expect(during.headers['plant-store-violations']).toBeUndefined();
    const reads = proxy.exchanges.filter((exchange) => exchange.request.method === gone.method);
    expect(reads.map((exchange) => exchange.judgedBy.filter((check) => STATEFUL.includes(check)))).toEqual([[], ['deleted-stays-deleted']]);
    expect(after.headers['plant-store-violations']).toBeUndefined();
  });

  it('two creates of one plant in flight together: the order the upstream applied them in is unknown, so it is not remembered; of two plants, both are', async () => {
    const held = await holdingFirst(walk?.create);
    const proxy = await proxyFor(held.url);
    const [first, other] = [sequence('read'), sequence('read')];
    const again = { ...first, setup: [{ ...(first.setup[0] as RequestCase), body: Buffer.from((first.setup[0] as RequestCase).body.toString().replace('Fern', 'Palm')) }] };
    const firstCreating = sendCase(proxy.url, first.setup[0] as RequestCase);
    await held.applied;
    await sendCase(proxy.url, again.setup[0] as RequestCase);
    await sendCase(proxy.url, other.setup[0] as RequestCase);
    held.release();
    await firstCreating;
    await sendCase(proxy.url, first);
    await sendCase(proxy.url, other);
    const reads = proxy.exchanges.slice(-2);
    expect(reads.map((exchange) => exchange.judgedBy.filter((check) => STATEFUL.includes(check)))).toEqual([[], ['resource-available']]);
    expect(reads.flatMap((exchange) => exchange.findings)).toEqual([]);
  });

  it('a read of one plant while a delete of another is in flight is judged', async () => {
    const held = await holdingFirst(walk?.remove?.operation);
    const proxy = await proxyFor(held.url);
    const [kept, gone] = [sequence('read'), sequence('delete-then-read')];
    const [create, del] = gone.setup;
    if (create === undefined || del === undefined) throw new Error('a delete-then-read has two steps first');
    await sendCase(proxy.url, kept.setup[0] as RequestCase);
    await sendCase(proxy.url, create);
    const deleting = sendCase(proxy.url, del);
    await held.applied;
    await sendCase(proxy.url, kept);
    held.release();
    await deleting;
    expect(proxy.exchanges.find((exchange) => exchange.request.method === kept.method)?.judgedBy).toContain('resource-available');
  });

  it('a create whose answer names another resource than its body (a key the server chose): every resource of its walk is forgotten', async () => {
    const create = walk?.create;
    // The property the read's link takes its key from (`$response.body#/<property>`).
    const [key] = Object.values(walk?.read?.parameters ?? {});
    const property = key !== undefined && 'pointer' in key ? key.pointer.slice(1) : '';
    // The second create is stored, but answered with another key: the link names a resource the body did not.
    let creates = 0;
    const upstream = await upstreamWith((request, correct) => {
      const answer = correct();
      if (contract.findOperation(request.method, request.url) !== create || answer.status !== 200 || ++creates !== 2) return answer;
      return { ...answer, body: answer.body.replace(new RegExp(`"${property}":(\\d+)`), (_all, digits: string) => `"${property}":${BigInt(digits) + 1n}`) };
    });
    const proxy = await proxyFor(upstream);
    const [before, created] = [sequence('read'), sequence('read')];
    await sendCase(proxy.url, before.setup[0] as RequestCase);
    await walkThrough(proxy.url, created);
    await sendCase(proxy.url, before);
    expect(proxy.exchanges.map((exchange) => exchange.judgedBy.filter((check) => STATEFUL.includes(check)))).toEqual([[], [], [], []]);
  });

  it('an unsafe request of unknown effect (a path outside the contract) answered 2xx forgets everything; answered 4xx, nothing', async () => {
    const outside = '/somewhere-else';
    const upstream = await upstreamWith((request, correct) => (request.url === outside && request.headers['x-answer'] === 'ok' ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' } : correct()));
    const proxy = await proxyFor(upstream);
    const created = sequence('read');
    await sendCase(proxy.url, created.setup[0] as RequestCase);
    await send(proxy.url, { method: 'POST', path: outside, headers: {} });
    await sendCase(proxy.url, created);
    await send(proxy.url, { method: 'POST', path: outside, headers: { 'x-answer': 'ok' } });
    await sendCase(proxy.url, created);
    const reads = proxy.exchanges.filter((exchange) => exchange.request.method === created.method);
    expect(reads.map((exchange) => exchange.judgedBy.filter((check) => STATEFUL.includes(check)))).toEqual([['resource-available'], []]);
  });

  it('a read after a write the upstream failed (5xx): what it did is unknown', async () => {
    const remove = walk?.remove?.operation;
    const upstream = await upstreamWith((request, correct) => {
      const answer = correct();
      return contract.findOperation(request.method, request.url) === remove ? { status: 503, headers: { 'content-type': 'application/json' }, body: '{"error":503,"message":"later"}' } : answer;
    });
    const proxy = await proxyFor(upstream);
    await walkThrough(proxy.url, sequence('delete-then-read'));
    expect(proxy.exchanges.at(-1)?.judgedBy.filter((check) => STATEFUL.includes(check))).toEqual([]);
  });

  it('a 4xx to a write is a request not applied: the read still expects what was created', async () => {
    const proxy = await proxyFor(await upstreamWith(readNotFound?.fault(contract) ?? ((_request, correct) => correct())));
    const gone = sequence('delete-then-read');
    const [create, del] = gone.setup;
    if (create === undefined || del === undefined) throw new Error('a delete-then-read has two steps first');
    await sendCase(proxy.url, create);
    await sendCase(proxy.url, del, { authorization: 'Bearer not-accepted' });
    const read = await sendCase(proxy.url, gone);
    expect(read.headers['plant-store-violations']).toBe('resource-available');
  });
});

describe('the memory is bounded', () => {
  it('keeps the last resources it saw created, the oldest forgotten first', () => {
    const memory = createLinkMemory(contract, 2);
    const creates = [sequence('read'), sequence('read'), sequence('read')];
    creates.forEach((read, i) => {
      const create = read.setup[0];
      if (create === undefined) throw new Error('a read has its create first');
      const ticket = memory.arrive(create, i + 1);
      memory.whole(ticket, create);
      memory.settle(ticket, create, classifyRequest(contract, create, { tokens: [TEST_TOKEN] }), { kind: 'response', status: 200, headers: { 'content-type': 'application/json' }, body: create.body, durationMs: 1 });
    });
    expect(memory.size).toBe(2);
    const stepFor = (read: RequestCase): string | undefined => memory.settle(memory.arrive(read, 9), read, classifyRequest(contract, read, { tokens: [TEST_TOKEN] }), { kind: 'response', status: 404, headers: {}, body: new Uint8Array(), durationMs: 1 })?.expects;
    expect(creates.map(stepFor)).toEqual([undefined, 'created', 'created']);
  });
});
