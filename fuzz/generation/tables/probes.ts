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

/** Every probe of the operation's request schema, applied and judged; computed once per request body. */
export function judgedProbes(context: KindContext): readonly JudgedProbe[] {
  let probes = judged.get(context.requestBody);
  if (!probes) {
    probes = probesOf(context.contract, context.requestBody.schema).map((probe, i) => {
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
