/**
 * The worker pool's exclusion: two requests about the same resource are never in flight together,
 * so that `echo` never sees another request's write.
 */
import { exactInteger, isJsonObject, isLosslessNumber, type Contract } from '../../src/openapi/index.js';
import { decodeJson } from '../checks/index.js';
import type { RequestCase } from '../types.js';
import type { PhasePlan, PlanItem } from './plan.js';

/** The integer properties of the contract's request bodies: what names a resource. */
export function integerKeysOf(contract: Contract): string[] {
  return [...new Set(contract.operations.flatMap((o) => [...(o.requestBody?.shape.properties ?? [])].filter(([, s]) => contract.resolve(s).type === 'integer').map(([k]) => k)))];
}

/**
 * The exact integers of a valid body's integer properties: two requests with the same key are
 * never in flight together. (Invalid requests store nothing on a correct target.)
 */
export function resourceKey(request: RequestCase, integerKeys: readonly string[]): string | undefined {
  if (integerKeys.length === 0 || request.content !== 'valid' || request.credentials !== 'valid') return undefined;
  const parsed = decodeJson(request.body);
  if (!('value' in parsed) || !isJsonObject(parsed.value)) return undefined;
  const value = parsed.value;
  const parts = integerKeys.map((k) => {
    const v = value[k];
    return isLosslessNumber(v) ? String(exactInteger(v) ?? v.value) : '';
  });
  // The same resource whatever query string the request carries (an extra of valid requests).
  return parts.every((p) => p === '') ? undefined : `${request.path.split('?', 1)[0] ?? ''} ${parts.join(' ')}`;
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
