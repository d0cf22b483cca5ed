/**
 * The coverage phase's schema probes as requests: every probe of the request schema
 * (schema-probes.ts) applied to a plain valid body, and judged by the contract's validator. A
 * probe the validator accepts is sent by `valid` (it must get 200), one it refuses by
 * `invalid-body` (it must get a declared 4xx): the contract, not the probe, says which.
 */
import { parseJson } from '../../../src/openapi/index.js';
import { writeJson, type JsonModel } from '../json-text.js';
import { probesOf, type Probe } from '../schema-probes.js';
import type { KindContext } from './context.js';

export interface JudgedProbe {
  readonly probe: Probe;
  /** The body: a plain valid body with the probe applied. */
  readonly model: JsonModel;
  /** Whether the contract's validator accepts the body. */
  readonly valid: boolean;
}

/** Plain bodies of probes are numbered from here: clear of the other coverage requests' ids. */
const PROBE_BASE = 1000;

/**
 * By request body: what the probes are depends on it alone (its schema, its validator, and the
 * plain bodies made from its schema), not on the credentials a context carries - double-fault's
 * contexts, one per kind of bad credentials, share the judging instead of each validating every
 * probe again.
 */
const judged = new WeakMap<KindContext['requestBody'], readonly JudgedProbe[]>();

/**
 * The probes a run's coverage sends over all of its request bodies, shared out evenly: each body
 * gets this divided by the contract's bodies (at least PROBES_PER_BODY_FLOOR). Far above what the
 * kit's openapi.yaml or a contract of a few operations has, which send every probe; a contract of
 * 68 bodies of 50 properties has some 4,700 probes per body, 320,000 in all, which took twenty
 * minutes to send (issue 29, bench/README.md): each operation pays the same share instead.
 */
export const PROBES_PER_RUN = 20_000;
const PROBES_PER_BODY_FLOOR = 100;

/** The share of PROBES_PER_RUN a body of this contract gets. */
function probeShare(context: KindContext): number {
  const bodies = context.contract.operations.filter((operation) => operation.requestBody !== undefined).length;
  return Math.max(PROBES_PER_BODY_FLOOR, Math.floor(PROBES_PER_RUN / Math.max(1, bodies)));
}

/** `share` of `all`, evenly spread over the list (every part of the schema keeps some), in order; all of them where they fit. */
export function evenlySpread<T>(all: readonly T[], share: number): readonly T[] {
  if (all.length <= share) return all;
  return all.filter((_item, i) => Math.floor(((i + 1) * share) / all.length) > Math.floor((i * share) / all.length));
}

/** The probes of the operation's request schema (its share of them), applied and judged; computed once per request body. */
export function judgedProbes(context: KindContext): readonly JudgedProbe[] {
  let probes = judged.get(context.requestBody);
  if (!probes) {
    probes = evenlySpread(probesOf(context.contract, context.requestBody.schema), probeShare(context)).map((probe, i) => {
      const model = probe.edit(context.plainBody(PROBE_BASE + i));
      return { probe, model, valid: context.requestBody.validate(parseJson(writeJson(model))).valid };
    });
    judged.set(context.requestBody, probes);
  }
  return probes;
}

/** The tag that names a probe on its request. */
export function probeTag(probe: Probe): string {
  return `probe:${probe.name}`;
}
