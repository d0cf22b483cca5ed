/**
 * The coverage phase's probes of an operation's parameters, as the body's probes (probes.ts) are
 * of its request body: every probe of each parameter's schema (schema-probes.ts) applied to its
 * plain value, a number's plain value with a `+` and with a leading zero, and a required parameter
 * left out - each judged by the operation's own reading of parameters (the contract), not by the
 * probe. A spelling of a valid value other than its canonical one (`1.0`, `1e2`, `+1`, `-0`:
 * oracle/parameter-spellings.ts) is open: the server may read it or refuse it.
 */
import type { OperationContract, ParameterContract } from '../../../src/openapi/index.js';
import { describeProbe, probesOf } from '../schema-probes.js';
import { carriable, modelText, parameterKey, parametersValid, type OperationContext, type ParameterText, type ParameterTexts } from './operation-context.js';
import { canonicalText, isOtherSpelling, PARAMETER_SPELLING_OPENNESS } from '../../../oracle/index.js';
import { placeOf, sharedEntries } from './shares.js';

export interface ParameterProbe {
  /** `path parameter id is 2^63`, `query parameter limit is missing`. */
  readonly variant: string;
  readonly values: ParameterTexts;
  /** Whether the contract takes it; an open one (below) is neither valid nor invalid. */
  readonly valid: boolean;
  /** Set (to the reason) where it is another spelling of a valid value: a 2xx and a declared 4xx both keep the contract. */
  readonly open?: string;
  readonly tag: string;
}

/** How the contract takes the values with `text` as the parameter's: valid, invalid, or open (another spelling of a valid value). */
function judge(operation: OperationContract, parameter: ParameterContract, values: ParameterTexts, text: ParameterText | undefined): Pick<ParameterProbe, 'valid' | 'open'> {
  if (text !== undefined && isOtherSpelling(parameter, text) && parametersValid(operation, { ...values, [parameterKey(parameter)]: canonicalText(parameter, text) })) return { valid: false, open: PARAMETER_SPELLING_OPENNESS };
  return { valid: parametersValid(operation, values) };
}

/** Plain parameter values of probes are numbered from here: clear of the body probes' ids (probes.ts). */
const PARAMETER_PROBE_BASE = 3000;

/** Spellings of a number parameter's plain value that no JSON text allows, but text readers may take (Number('+1'), int('007')). */
const OTHER_SPELLINGS: readonly (readonly [string, string, (text: string) => string])[] = [
  ['spelling:plus-sign', 'a plus sign', (text) => (text.startsWith('-') ? text : `+${text}`)],
  ['spelling:leading-zero', 'a leading zero', (text) => (text.startsWith('-') ? `-0${text.slice(1)}` : `0${text}`)],
];

const judged = new WeakMap<OperationContext, readonly ParameterProbe[]>();

/** Every probe of every parameter of the context's operation (its share of them, below), judged; computed once per context. */
export function parameterProbes(context: OperationContext): readonly ParameterProbe[] {
  let probes = judged.get(context);
  if (probes) return probes;
  const { operation, schemas, contract } = context;
  const found: ParameterProbe[] = [];
  for (const parameter of operation.parameters) {
    const key = parameterKey(parameter);
    const label = `${parameter.in} parameter ${parameter.name}`;
    const add = (what: string, tag: string, values: ParameterTexts): void => {
      found.push({ variant: `${label} ${what}`, values, ...judge(operation, parameter, values, values[key]), tag: `parameter:${parameter.in}:${parameter.name}/${tag}` });
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
    for (const [tag, what, spell] of OTHER_SPELLINGS) {
      const text = plain[key];
      if ((parameter.scalar !== 'integer' && parameter.scalar !== 'number') || typeof text !== 'string') continue;
      const spelled = spell(text);
      add(`is ${text} written ${spelled} (${what})`, tag, { ...plain, [key]: spelled });
    }
  }
  probes = sharedEntries(found, probeClass, placeOf(contract, operation, 'parameters', (o) => o.parameters.length > 0), PARAMETER_PROBES_PER_RUN);
  judged.set(context, probes);
  return probes;
}

/**
 * The parameter probes a run's coverage sends over all of its operations with parameters, shared
 * out (shares.ts): the kit's example contracts send every probe (garden-journal.yaml, 1,442 over
 * 12 operations); a contract of 170 operations sent 13,286, a list operation's 70 valid ones each
 * answered with the whole list. Each operation keeps one probe of every class: valid, invalid and
 * open, of each family (a type, an integer edge, another spelling of one, a coercion, a missing
 * parameter).
 */
export const PARAMETER_PROBES_PER_RUN = 4_000;

/** A probe's class: how the contract takes it, and its family (`integer`, `integer` spelled otherwise, `type`, `missing`). */
function probeClass(probe: ParameterProbe): string {
  const name = probe.tag.slice(probe.tag.indexOf('/') + 1);
  const [family = name, ...rest] = name.split(':');
  return `${probe.valid ? 'valid' : probe.open === undefined ? 'invalid' : 'open'} ${family}${rest.length > 1 ? ' spelled' : ''}`;
}
