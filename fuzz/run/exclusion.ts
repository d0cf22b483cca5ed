/**
 * The worker pool's exclusion: two requests about the same resource are never in flight together,
 * so that `echo` never sees another request's write.
 */
import type { Contract } from '../../src/openapi/index.js';
import { integerKey, type RequestCase } from '../../oracle/index.js';
import type { PhasePlan, PlanItem } from './plan.js';

/**
 * The resource a request writes, for the exclusion: the oracle's `integerKey` (derived there once)
 * for a valid request with valid credentials. (Invalid requests store nothing on a correct target.)
 */
export function writtenResource(contract: Contract, request: RequestCase): string | undefined {
  // A sequence along links (the stateful phase) is about the resource its first step creates.
  const about = request.link === undefined ? request : (request.setup[0] ?? request);
  return about.content === 'valid' && about.credentials === 'valid' ? integerKey(contract, about) : undefined;
}

export type KeyedItem = PlanItem & { readonly key: string | undefined };

/** A phase's cases, a few ahead of the workers, handed out so that no two with the same key are in flight together. */
export class ExclusiveQueue {
  private readonly queue: KeyedItem[] = [];
  private readonly busy = new Set<string>();
  private exhausted = false;

  constructor(
    private readonly plan: PhasePlan,
    private readonly keyOf: (request: RequestCase) => string | undefined,
    private readonly ahead: number,
  ) {}

  /** Every case of the plan was handed out. */
  done(): boolean {
    return this.exhausted && this.queue.length === 0;
  }

  /** The next case whose key is not in flight (now marked so), or undefined when all waiting ones are. */
  take(): KeyedItem | undefined {
    this.refill();
    const at = this.queue.findIndex(({ key }) => key === undefined || !this.busy.has(key));
    const item = at === -1 ? undefined : this.queue.splice(at, 1)[0];
    if (item?.key !== undefined) this.busy.add(item.key);
    return item;
  }

  /** The case's exchanges are over: its key is free again. */
  release(item: KeyedItem): void {
    if (item.key !== undefined) this.busy.delete(item.key);
  }

  private refill(): void {
    while (!this.exhausted && this.queue.length < this.ahead) {
      const item = this.plan.next();
      if (item === undefined) this.exhausted = true;
      else this.queue.push({ ...item, key: this.keyOf(item.request) });
    }
  }
}
