/**
 * The coverage phase's probes of an operation's parameters, as the body's probes (probes.ts) are
 * of its request body: every probe of each parameter's schema (schema-probes.ts) applied to its
 * plain value, and a required parameter left out - each judged by the operation's own reading of
 * parameters (the contract), not by the probe.
 */
import { describeProbe, probesOf } from '../schema-probes.js';
import { carriable, modelText, parameterKey, parametersValid, type OperationContext, type ParameterTexts } from './operation-context.js';

export interface ParameterProbe {
  /** `path parameter id is 2^63`, `query parameter limit is missing`. */
  readonly variant: string;
  readonly values: ParameterTexts;
  readonly valid: boolean;
  readonly tag: string;
}

/** Plain parameter values of probes are numbered from here: clear of the body probes' ids (probes.ts). */
const PARAMETER_PROBE_BASE = 3000;

const judged = new WeakMap<OperationContext, readonly ParameterProbe[]>();

/** Every probe of every parameter of the context's operation, judged; computed once per context. */
export function parameterProbes(context: OperationContext): readonly ParameterProbe[] {
  let probes = judged.get(context);
  if (probes) return probes;
  const { operation, schemas, contract } = context;
  const found: ParameterProbe[] = [];
  for (const parameter of operation.parameters) {
    const key = parameterKey(parameter);
    const label = `${parameter.in} parameter ${parameter.name}`;
    const add = (what: string, tag: string, values: ParameterTexts): void => {
      found.push({ variant: `${label} ${what}`, values, valid: parametersValid(operation, values), tag: `parameter:${parameter.in}:${parameter.name}/${tag}` });
    };
    const plain = context.plainParameters(PARAMETER_PROBE_BASE + found.length);
    // A path parameter cannot be left out: the path would be another one.
    if (parameter.required && parameter.in !== 'path') {
      const without = { ...plain };
      Reflect.deleteProperty(without, key);
      add('is missing', 'missing', without);
    }
    for (const probe of probesOf(contract, parameter.schema)) {
      if (probe.path.length > 0) continue;
      const text = modelText(probe.edit(schemas.plain(parameter.schema, PARAMETER_PROBE_BASE + found.length)));
      if (carriable(parameter, text)) add(describeProbe(probe).replace(/^the body /, ''), probe.name, { ...plain, [key]: text });
    }
  }
  probes = found;
  judged.set(context, probes);
  return probes;
}
