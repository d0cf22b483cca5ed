/**
 * `invalid-body`: well-formed JSON with one schema violation, sent with valid credentials and a
 * declared media type: a required property missing, one property of a wrong type or out of its
 * range, or a body that is not an object. The coverage phase sends every schema probe the
 * contract's validator refuses (probes.ts).
 */
import fc from 'fast-check';
import { tagsOf, type JsonModel } from '../json-text.js';
import type { InvalidValue } from '../schema-arbitraries.js';
import { describeProbe } from '../schema-probes.js';
import type { RequestCase } from '../../../oracle/index.js';
import { variantTable, variantTag, type VariantTable } from '../variants.js';
import type { KindContext } from '../tables/context.js';
import type { AuthSpelling } from '../tables/credential-spellings.js';
import { requestKind } from './kind.js';
import { judgedProbes, probeTag } from '../tables/probes.js';

/** One schema violation applied to a valid body. */
export interface Mutation {
  readonly variant: string;
  apply(model: JsonModel): JsonModel;
  /** The variants it was drawn from (see RequestCase.tags). */
  readonly tags?: readonly string[];
}

export function withoutProperty(key: string): Mutation {
  return { variant: `${key} is missing`, tags: [variantTag('missing', key)], apply: (model) => (model.kind === 'object' ? { kind: 'object', members: model.members.filter((m) => m.key !== key) } : model) };
}

export function withProperty(key: string, value: InvalidValue): Mutation {
  return {
    variant: `${key} ${value.description}`,
    tags: value.tags.map((t) => `${key}/${t}`),
    apply: (model) => {
      if (model.kind !== 'object') return model;
      const present = model.members.some((m) => m.key === key);
      const members = present ? model.members.map((m) => (m.key === key ? { ...m, value: value.model } : m)) : [...model.members, { key, keyStyle: 'plain' as const, value: value.model }];
      return { kind: 'object', members };
    },
  };
}

/** Bodies that are not an object, when the request schema wants one. */
export const NON_OBJECTS: readonly (readonly [JsonModel, string])[] = [
  [{ kind: 'literal', text: 'null' }, 'the body is null'],
  [{ kind: 'literal', text: 'true' }, 'the body is true'],
  [{ kind: 'number', text: '1' }, 'the body is a number'],
  [{ kind: 'string', value: 'Monstera', style: 'plain' }, 'the body is a string'],
  [{ kind: 'array', items: [] }, 'the body is an empty array'],
];

function replacedBy(result: JsonModel, variant: string): Mutation {
  return { variant, tags: [variantTag('non-object', variant)], apply: () => result };
}

const IN_ARRAY = 'the body is an array holding a valid object';
const inArray: Mutation = { variant: IN_ARRAY, tags: [variantTag('non-object', IN_ARRAY)], apply: (inner) => ({ kind: 'array', items: [inner] }) };

/** One schema violation at a time. */
function mutationArbitrary(context: KindContext): fc.Arbitrary<Mutation> | undefined {
  const { shape, schemas } = context;
  const choices: fc.WeightedArbitrary<Mutation>[] = [];
  if (shape.required.size > 0) choices.push({ weight: 2, arbitrary: fc.constantFrom(...shape.required).map(withoutProperty) });
  const replacements = [...shape.properties].flatMap(([key, schema]) => {
    const invalid = schemas.invalid(schema);
    return invalid ? [invalid.map((value) => withProperty(key, value))] : [];
  });
  if (replacements.length > 0) choices.push({ weight: 5, arbitrary: fc.oneof(...replacements) });
  if (context.isObject) choices.push({ weight: 1, arbitrary: fc.constantFrom(...NON_OBJECTS.map(([result, variant]) => replacedBy(result, variant)), inArray) });
  return choices.length === 0 ? undefined : fc.oneof(...choices);
}

export function invalidCase(context: KindContext, model: JsonModel, mutation: Mutation, options: { mediaType?: string; auth?: AuthSpelling } = {}): RequestCase {
  return context.make({
    kind: 'invalid-body',
    variant: mutation.variant,
    content: 'invalid',
    auth: options.auth ?? context.validAuth,
    contentType: options.mediaType ?? context.jsonTypes[0],
    body: context.text(mutation.apply(model)),
    tags: mutation.tags ?? [],
  });
}

/** The tables a random invalid body is drawn from: which property is missing, which invalid value, which non-object. */
function variantTables(context: KindContext): VariantTable[] {
  const { shape, schemas } = context;
  return [
    ...variantTable('missing', [...shape.required]),
    ...[...shape.properties].flatMap(([key, schema]) => schemas.invalidTables(schema, `${key}/`)),
    ...(context.isObject ? variantTable('non-object', [...NON_OBJECTS.map(([, variant]) => variant), IN_ARRAY]) : []),
  ];
}

export const invalidBody = requestKind({
  name: 'invalid-body',
  description: 'well-formed JSON with one schema violation: a required property missing, a property null, of another type, a string of digits, a fraction or outside its format; a body that is not an object',
  weight: 30,
  random: (context) => {
    const mutation = mutationArbitrary(context);
    if (!mutation) return undefined;
    return fc.record({ model: context.body, layout: context.layout, mediaType: context.mediaType, auth: context.goodAuth, mutation }).map(({ model, layout, mediaType, auth, mutation: m }) => {
      const body = m.apply(model);
      // The mutation's own tags, and those of the valid body around it (a replaced value's are gone with it).
      return context.make({ kind: 'invalid-body', variant: m.variant, content: 'invalid', auth, contentType: mediaType, body: context.text(body, layout), tags: [...(m.tags ?? []), ...tagsOf(body)] });
    });
  },
  // Every probe of the request schema the contract's validator refuses (probes.ts).
  coverage: (context) =>
    judgedProbes(context)
      .filter((p) => !p.valid)
      .map(({ probe, model }) => context.make({ kind: 'invalid-body', variant: describeProbe(probe), content: 'invalid', auth: context.validAuth, contentType: context.jsonTypes[0], body: context.text(model), tags: [probeTag(probe)] })),
  variants: (context) => variantTables(context),
});
