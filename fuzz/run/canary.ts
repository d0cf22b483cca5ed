/**
 * The canary: the same valid request, sent at intervals through the run, alone (every worker
 * waits), CANARY_SENDS times in a row; its fastest answer is one reading of the target's speed
 * (checks/degradation.ts). With a control (control.ts) each send to the target is followed by one
 * to the control, asking for as many bytes as the target's last answer held: the two are read in
 * the same moments, so the machine's load weighs on both alike.
 */
import { performance } from 'node:perf_hooks';
import type { Phase } from '../../oracle/index.js';
import type { PlanItem } from './plan.js';
import type { RunExchange, Place, Tally } from './tally.js';

/** Sends of the canary per reading; the reading is the fastest. */
export const CANARY_SENDS = 5;

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
}

/** What the canary needs of its control: one timed request for a body of `bytes` bytes. */
export interface ControlSender {
  send(bytes: number): Promise<number>;
}

export class Canary {
  private pause: Promise<void> | undefined;
  private last = 0;
  private cost = 0;

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
    this.last = performance.now();
    this.cost = this.last - began;
    const controlled = Number.isFinite(control) ? { controlMs: control } : {};
    if (Number.isFinite(best)) tally.timeline.addCanary({ afterExchanges, startedMs, phase, durationMs: best, samples: CANARY_SENDS, ...controlled });
  }

  /** One send to the control, if there is one; a control that failed counts for nothing (the reading is then the canary's alone). */
  async #control(bytes: number): Promise<number> {
    try {
      return (await this.parts.control?.send(bytes)) ?? Number.POSITIVE_INFINITY;
    } catch {
      return Number.POSITIVE_INFINITY;
    }
  }

  /** The reading under way, or one begun now if it is due (every interval, at least five times a reading's cost); undefined if none is. */
  due(phase: Phase): Promise<void> | undefined {
    if (this.pause === undefined && performance.now() - this.last >= Math.max(this.parts.intervalMs, 5 * this.cost) && this.parts.tally.stoppedEarly === undefined) {
      this.pause = this.read(phase).finally(() => {
        this.pause = undefined;
      });
    }
    return this.pause;
  }
}
