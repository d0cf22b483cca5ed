/**
 * `valid`: NewPlants that validate against the contract, with valid credentials and a declared
 * media type, in every spelling a server must accept; one in five is preceded by the same id
 * posted with other values (decision 2: a repeated id replaces the stored plant).
 */
import fc from 'fast-check';
import { LAYOUTS, modelHasLoneSurrogate, modelHasPrototypeKey, tagsOf, type JsonModel, type Layout } from '../json-text.js';
import { LONE_SURROGATE_LENIENCY, PROTOTYPE_KEY_LENIENCY, type RequestCase } from '../../../oracle/index.js';
import { describeProbe } from '../schema-probes.js';
import { variantTable, variantTag, type VariantTable } from '../variants.js';
import { caseSpellings, mediaTypeSpellings, type KindContext } from '../tables/context.js';
import type { AuthSpelling } from '../tables/credential-spellings.js';
import { NO_EXTRAS, REQUEST_EXTRAS, type RequestExtras } from '../tables/extras.js';
import { requestKind } from './kind.js';
import { judgedProbes, probeTag } from '../tables/probes.js';
import { escapeBodies } from '../tables/escapes.js';

/** How often (out of 100) a valid request is preceded by a request for the same id with other values. */
const REPEAT_RATE = 20;

/** The integer properties of `main` put into `first`: the same stored resource, other values. */
export function withKeysOf(first: JsonModel, main: JsonModel, keys: readonly string[]): JsonModel {
  if (first.kind !== 'object' || main.kind !== 'object') return first;
  const ids = main.members.filter((m) => keys.includes(m.key));
  return { kind: 'object', members: [...first.members.filter((m) => !keys.includes(m.key)), ...ids] };
}

interface ValidSpec {
  readonly model: JsonModel;
  readonly layout: Layout;
  readonly mediaType: string;
  readonly auth: AuthSpelling;
  readonly extras: RequestExtras;
  /** Posted first with the same integer properties. */
  readonly earlier?: JsonModel | undefined;
  /** What the body is, for people; the spellings are added to it. */
  readonly what?: string;
  /** The variants it was drawn from, besides those of its model and spellings (see RequestCase.tags). */
  readonly tags?: readonly string[];
}

/**
 * The tags of a valid request's spellings: the layout, media type and scheme word where they are
 * not the plain ones, and every tag inside its body.
 */
function spellingTags(context: KindContext, spec: ValidSpec): string[] {
  const word = spec.auth.header?.split(' ')[0];
  return [
    ...(spec.layout === 'compact' ? [] : [variantTag('layout', spec.layout)]),
    variantTag('json-media-type', spec.mediaType),
    ...(word === undefined || context.scheme === undefined ? [] : [variantTag('auth-scheme', word)]),
    ...tagsOf(spec.model),
    ...(spec.tags ?? []),
  ];
}

type Leniency = { readonly lenient?: string; readonly lenientAbout?: 'refusal' };

/**
 * What a valid body leaves open, if anything: a lone surrogate (RFC 8259, section 8.2) both its
 * acceptance and what comes back; a prototype key (modelHasPrototypeKey) only its acceptance.
 */
function bodyLeniency(model: JsonModel): Leniency | undefined {
  if (modelHasLoneSurrogate(model)) return { lenient: LONE_SURROGATE_LENIENCY };
  if (modelHasPrototypeKey(model)) return { lenient: PROTOTYPE_KEY_LENIENCY, lenientAbout: 'refusal' };
  return undefined;
}

/** A valid request, with the spellings other than the plain ones named: a failure may hinge on them. */
export function validCase(context: KindContext, spec: ValidSpec): RequestCase {
  const { jsonTypes, integerKeys } = context;
  const notes = [spec.mediaType === jsonTypes[0] ? '' : `Content-Type: ${spec.mediaType}`, spec.auth === context.validAuth ? '' : spec.auth.shown, spec.extras.note, spec.layout === 'compact' ? '' : `${spec.layout} JSON`].filter(Boolean);
  const describe = (what: string): string => [what, ...notes].join('; ');
  // The body's leniency first: a lone surrogate's covers a changed echo too (RFC 8259 leaves what
  // a receiver does with it open); a prototype key's and an extra's only a refusal.
  const leniency = (model: JsonModel): Leniency => bodyLeniency(model) ?? (spec.extras.lenient === undefined ? {} : { lenient: spec.extras.lenient, lenientAbout: 'refusal' });
  const base = { kind: 'valid', content: 'valid' as const, auth: spec.auth, contentType: spec.mediaType };
  const earlier = spec.earlier === undefined ? undefined : withKeysOf(spec.earlier, spec.model, integerKeys);
  const setup = earlier === undefined ? [] : [context.make({ ...base, variant: describe(`the same ${integerKeys.join(', ')}, posted first with other values`), body: context.text(earlier, spec.layout), ...bodyLeniency(earlier) })];
  const { lenient, lenientAbout } = leniency(spec.model);
  return context.make({
    ...base,
    variant: describe(spec.what ?? (setup.length > 0 ? `a repeated ${integerKeys.join(', ')}` : 'a valid body')),
    body: context.text(spec.model, spec.layout),
    setup,
    extras: spec.extras,
    lenient,
    lenientAbout,
    tags: spellingTags(context, spec),
  });
}

export const valid = requestKind({
  name: 'valid',
  description: 'NewPlants that validate against the contract, in every spelling of credentials, media type, JSON layout and extra header a server must accept; some repeat an id posted just before',
  weight: 40,
  random: (context) => {
    const earlier: fc.Arbitrary<JsonModel | undefined> =
      context.integerKeys.length > 0 ? fc.oneof({ withCrossShrink: true }, { weight: 100 - REPEAT_RATE, arbitrary: fc.constant(undefined) }, { weight: REPEAT_RATE, arbitrary: context.body }) : fc.constant(undefined);
    return fc.record({ model: context.body, layout: context.layout, mediaType: context.mediaType, auth: context.goodAuth, extras: context.extras, earlier }).map((spec) => validCase(context, spec));
  },
  coverage: (context) => {
    const cases: RequestCase[] = [];
    let n = 0;
    const plain = { layout: 'compact' as const, mediaType: context.jsonTypes[0] ?? 'application/json', auth: context.validAuth, extras: NO_EXTRAS };
    const add = (spec: Partial<ValidSpec>): void => {
      cases.push(validCase(context, { ...plain, model: context.plainBody(n++), ...spec }));
    };
    add({ what: 'a plain valid body' });
    for (const mediaType of context.jsonTypes.flatMap(mediaTypeSpellings)) add({ mediaType });
    // Every spelling of valid credentials the credential table (credentials.ts) says a server must accept.
    for (const auth of context.acceptedAuth) add({ auth });
    for (const layout of LAYOUTS) add({ layout });
    for (const { model, key, style } of escapeBodies(context, context.plainBody(n++))) add({ model, what: `every escape RFC 8259, section 7 allows in ${key}, written ${style}` });
    for (const extras of REQUEST_EXTRAS) add({ extras });
    if (context.integerKeys.length > 0) {
      const first = context.plainBody(n++);
      add({ earlier: first });
      // A replacement without the optional properties the stored plant had (plainBody: every
      // property for an even n, the required ones for an odd n): decision 2 replaces, so they are gone.
      const optional = [...context.shape.properties.keys()].filter((key) => !context.shape.required.has(key));
      if (optional.length > 0) {
        const full = n + (n % 2);
        add({ earlier: context.plainBody(full), model: context.plainBody(full + 1), what: `a repeated ${context.integerKeys.join(', ')} without the ${optional.join(', ')} it was posted with first` });
        n = full + 2;
      }
    }
    // Every probe of the request schema the contract's validator accepts (probes.ts).
    for (const { probe, model } of judgedProbes(context).filter((p) => p.valid)) add({ model, what: describeProbe(probe), tags: [probeTag(probe)] });
    return cases;
  },
  variants: (context) => variantTables(context),
});

/** The tables a random valid request is drawn from: its body's, and its spellings'. */
function variantTables(context: KindContext): VariantTable[] {
  return [
    ...context.schemas.variantTables(context.requestBody.schema),
    ...variantTable('layout', LAYOUTS.slice(1)),
    ...variantTable('json-media-type', context.jsonTypes.flatMap(mediaTypeSpellings)),
    ...(context.scheme === undefined ? [] : variantTable('auth-scheme', caseSpellings(context.scheme))),
  ];
}
