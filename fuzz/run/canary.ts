/**
 * The canary: the same valid request, sent at intervals through the run, alone (every worker
 * waits), CANARY_SENDS times in a row; its fastest answer is one reading of the target's speed
 * (checks/degradation.ts). With a control (control.ts) each send to the target is followed by one
 * to the control, asking for as many bytes as the target's last answer held: the two are read in
 * the same moments, so the machine's load weighs on both alike.
 *
 * The canary alone, on one kept-alive connection, about a plant stored before all others, cannot
 * see every cost that grows with what the target holds. In the same round, alone too:
 * - **connections**: the canary again on a connection of its own each send (its control too),
 *   against the connections the run has opened and closed: a server that walks what it keeps of
 *   every connection served, on each new one;
 * - **entries**: during the capacity phase, a request about the plant stored last (its read where
 *   the contract has one, else its create again: the same plant), against the plants stored: a
 *   lookup that walks the entries in order reaches the newest last, and the canary's first;
 * - **sessions**: SESSIONS_PER_READING credentials no client presented before, each on the
 *   canary's request in its scheme's place (another client, as far as the target can tell): a
 *   server that keeps a table of the clients it has seen and walks it on every request slows
 *   the canary itself, which `degradation` judges over the run.
 */
import { performance } from 'node:perf_hooks';
import type { GrowthMeasure, Phase, RequestCase } from '../../oracle/index.js';
import type { PlanItem } from './plan.js';
import type { RunExchange, Place, Tally } from './tally.js';

/** Sends of the canary per reading; the reading is the fastest. */
export const CANARY_SENDS = 5;
/** Sends of a growth probe per reading; the reading is the fastest (as many as the canary's: fewer left the plant stored last too noisy to judge on a loaded machine). */
export const GROWTH_SENDS = 5;
/** Credentials no client presented before, sent in each round: about 600 in a default run (sessions, above). */
export const SESSIONS_PER_READING = 16;

/** Requests in flight, and a wait for none to be. */
export class InFlight {
  private count = 0;
  private drained: (() => void) | undefined;

  enter(): void {
    this.count++;
  }

  leave(): void {
    if (--this.count === 0) this.drained?.();
  }

  /** Resolves when no request is in flight. */
  async none(): Promise<void> {
    if (this.count > 0) await new Promise<void>((resolve) => (this.drained = resolve));
  }
}

export interface CanaryParts {
  readonly item: PlanItem;
  readonly intervalMs: number;
  readonly inFlight: InFlight;
  readonly tally: Tally;
  /** When the run began (performance.now()). */
  readonly started: number;
  send(item: PlanItem): Promise<RunExchange>;
  record(place: Place, exchanges: readonly RunExchange[], probe: 'canary'): void;
  orderOf(phase: Phase): number;
  /** The control read in the same rounds (control.ts); none in tests that judge the canary alone. */
  readonly control?: ControlSender;
  /** The entries probe's request now (about the plant stored last) and the plants stored; undefined when there is none to probe (outside the capacity phase). */
  readonly newest?: (phase: Phase) => { readonly item: PlanItem; readonly holds: number } | undefined;
  /** The canary's request with the n-th credential no client presented before (another client); absent where the canary needs none. */
  readonly otherClient?: (n: number) => RequestCase;
}

/** What the canary needs of its control: one timed request for a body of `bytes` bytes, on the kept-alive connection or (`fresh`) one of its own. */
export interface ControlSender {
  send(bytes: number, fresh?: boolean): Promise<number>;
}

export class Canary {
  private pause: Promise<void> | undefined;
  private last = 0;
  private cost = 0;
  /** The growth probes' part of the last round: it spaces the rounds by its own length, not five times it (due). */
  private growthCost = 0;
  /** Credentials presented so far (sessions, above). */
  private clients = 0;

  constructor(private readonly parts: CanaryParts) {}

  /** A reading now: once no request is in flight, CANARY_SENDS sends; the fastest answer goes into the timeline. */
  async read(phase: Phase): Promise<void> {
    const { tally, item } = this.parts;
    const began = performance.now();
    await this.parts.inFlight.none();
    const startedMs = performance.now() - this.parts.started;
    const afterExchanges = tally.requests;
    let best = Number.POSITIVE_INFINITY;
    let control = Number.POSITIVE_INFINITY;
    for (let i = 0; i < CANARY_SENDS && tally.stoppedEarly === undefined; i++) {
      const sent = await this.parts.send(item);
      this.parts.record({ phase, order: this.parts.orderOf(phase), item }, [sent], 'canary');
      if (sent.outcome.kind !== 'response') continue;
      best = Math.min(best, sent.outcome.durationMs);
      control = Math.min(control, await this.#control(sent.outcome.body.length));
    }
    const controlled = Number.isFinite(control) ? { controlMs: control } : {};
    if (Number.isFinite(best)) tally.timeline.addCanary({ afterExchanges, startedMs, phase, durationMs: best, samples: CANARY_SENDS, ...controlled });
    this.cost = performance.now() - began;
    const growthBegan = performance.now();
    await this.#growth(phase, startedMs);
    this.last = performance.now();
    this.growthCost = this.last - growthBegan;
  }

  /** The growth probes of the round (above): the canary on connections of their own, the plant stored last, then new clients. */
  async #growth(phase: Phase, startedMs: number): Promise<void> {
    const { tally, item } = this.parts;
    await this.#probe('connections', phase, startedMs, { ...item, request: tagged(item.request, 'growth:connections'), fresh: true }, tally.freshConnections);
    const newest = this.parts.newest?.(phase);
    if (newest !== undefined) await this.#probe('entries', phase, startedMs, { index: -1, request: tagged(newest.item.request, 'growth:entries'), fresh: false }, newest.holds);
    await this.#newClients(phase);
  }

  /** One growth reading: GROWTH_SENDS sends of `probe`, each followed by one to the control sent the same way; the fastest goes into the timeline. */
  async #probe(measure: GrowthMeasure, phase: Phase, startedMs: number, probe: PlanItem, holds: number): Promise<void> {
    const { tally } = this.parts;
    let best = Number.POSITIVE_INFINITY;
    let control = Number.POSITIVE_INFINITY;
    for (let i = 0; i < GROWTH_SENDS && tally.stoppedEarly === undefined; i++) {
      const sent = await this.parts.send(probe);
      this.parts.record({ phase, order: this.parts.orderOf(phase), item: probe }, [sent], 'canary');
      if (sent.outcome.kind !== 'response') continue;
      best = Math.min(best, sent.outcome.durationMs);
      control = Math.min(control, await this.#control(sent.outcome.body.length, probe.fresh));
    }
    const controlled = Number.isFinite(control) ? { controlMs: control } : {};
    if (Number.isFinite(best)) tally.timeline.addGrowth({ measure, holds, startedMs, phase, durationMs: best, samples: GROWTH_SENDS, ...controlled });
  }

  /**
   * SESSIONS_PER_READING credentials no client presented before, sent together in the round (at
   * most `concurrency` at a time, on the kept-alive connections; alone, so that they add nothing
   * to a phase's own load), each judged like any request (a 401 where the target does not know
   * it). They are what the target is made to hold, not a reading: the canary's next readings show
   * what holding them costs.
   */
  async #newClients(phase: Phase): Promise<void> {
    const otherClient = this.parts.otherClient;
    if (otherClient === undefined) return;
    const clients = Array.from({ length: SESSIONS_PER_READING }, () => ({ index: -1, request: otherClient(this.clients++), fresh: false }));
    await Promise.all(
      clients.map(async (client) => {
        if (this.parts.tally.stoppedEarly !== undefined) return;
        const sent = await this.parts.send(client);
        this.parts.record({ phase, order: this.parts.orderOf(phase), item: client }, [sent], 'canary');
      }),
    );
  }

  /** One send to the control, if there is one; a control that failed counts for nothing (the reading is then the canary's alone). */
  async #control(bytes: number, fresh = false): Promise<number> {
    try {
      return (await this.parts.control?.send(bytes, fresh)) ?? Number.POSITIVE_INFINITY;
    } catch {
      return Number.POSITIVE_INFINITY;
    }
  }

  /**
   * The reading under way, or one begun now if it is due: every interval, and at least five times
   * the canary's part of a round plus its probes' after it. The canary costs a sixth of the run at
   * most, as it did before there were probes, and the probes take from it no more readings than
   * their own time: against a slow target, a trend needs the canary's readings more.
   */
  due(phase: Phase): Promise<void> | undefined {
    if (this.pause === undefined && performance.now() - this.last >= Math.max(intervalIn(phase, this.parts.intervalMs), 5 * this.cost + this.growthCost) && this.parts.tally.stoppedEarly === undefined) {
      this.pause = this.read(phase).finally(() => {
        this.pause = undefined;
      });
    }
    return this.pause;
  }
}

/** A request with one more tag (RequestCase.tags): the growth probe it is sent as. */
export function tagged(request: RequestCase, tag: string): RequestCase {
  return { ...request, tags: [...(request.tags ?? []), tag] };
}

/**
 * The interval between rounds in a phase: half of it during the capacity phase, the only one in
 * which the entries probe reads. A quick target fills its 5,000 plants in a second or two, ten
 * rounds at the full interval: fewer than a trend needs (MIN_READINGS).
 */
export function intervalIn(phase: Phase, intervalMs: number): number {
  return phase === 'capacity' ? intervalMs / 2 : intervalMs;
}
