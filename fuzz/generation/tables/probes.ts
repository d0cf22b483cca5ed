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
import { placeOf, sharedEntries } from './shares.js';

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
 * The probes a run's coverage sends over all of its request bodies, shared out (shares.ts). Far
 * above what the kit's openapi.yaml or a contract of a few operations has, which send every probe
 * (garden-journal.yaml: some 300 a body over 6 bodies); a contract of 68 bodies of 50 properties
 * has some 4,700 probes per body, 320,000 in all, which took twenty minutes to send (issue 29,
 * bench/README.md). Each body sends its share: one probe of every class (a family at the root or
 * in a property: a string edge, an integer bound, a type, a missing property, a hostile key...),
 * the rest a window over its list that moves on from body to body, so that every probe of a
 * resource's schema is sent by one of its operations or another's where the budget allows.
 */
export const PROBES_PER_RUN = 8_000;

/** A probe's class: where it changes the body (the root or a property) and its family (`string-edge`, `integer`, `missing`). */
export function probeClass(probe: Probe): string {
  const last = probe.name.slice(probe.name.lastIndexOf('/') + 1);
  return `${probe.path.length === 0 ? 'root' : 'property'} ${last.split(':')[0] ?? last}`;
}

/** The probes of the operation's request schema (its share of them), applied and judged; computed once per request body. */
export function judgedProbes(context: KindContext): readonly JudgedProbe[] {
  let probes = judged.get(context.requestBody);
  if (!probes) {
    const place = placeOf(context.contract, context.operation, 'body', (operation) => operation.requestBody !== undefined);
    probes = sharedEntries(probesOf(context.contract, context.requestBody.schema), probeClass, place, PROBES_PER_RUN).map((probe, i) => {
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
