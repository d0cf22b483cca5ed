/**
 * The kit's consumer contract: what a client of the Plant Store (the typed client of client.ts)
 * expects from `POST /plants`, as Pact V4 interactions. Each interaction is declared once here and
 * used twice: test/contracts/consumer.test.ts runs it against Pact's mock server and checks what the
 * client makes of the answer (and writes contracts/pacts/), and `recordPacts` writes the same pact
 * for `plant-store verify`, which needs it after a fresh `npm ci` where no test has run.
 *
 * Matchers stand wherever the consumer does not care about the literal value (ids, error codes,
 * error messages, the token, media type parameters). Names and tags are literal: the consumer shows
 * the plant as stored, so what it sent must come back (docs/DESIGN.md, decision 3).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { getFfiLib } from '@pact-foundation/pact-core';
import { defaultContractFile, stringifyJson } from '../src/openapi/index.js';
import { createPlant, type CreatePlantResult, type NewPlant } from './client.js';
import { CONSUMER, EXAMPLE_TOKEN, PLANT_STORED, PROVIDER } from './names.js';

export { CONSUMER, EXAMPLE_TOKEN, PLANT_STORED, PROVIDER };

const { integer, regex, string } = MatchersV3;

// pact-js exports these stages of its builder only as types of its methods.
type V4UnconfiguredInteraction = ReturnType<PactV4['addInteraction']>;
type V4InteractionWithResponse = ReturnType<ReturnType<V4UnconfiguredInteraction['withRequest']>['willRespondWith']>;

/** Where the consumer tests write the pact (gitignored; `npm run pact:publish` publishes from here). */
export function defaultPactDir(): string {
  return join(dirname(defaultContractFile()), 'contracts', 'pacts');
}

/** The pact file Pact writes for this consumer and provider, in `dir`. */
export function pactFileIn(dir: string): string {
  return join(dir, `${CONSUMER}-${PROVIDER}.json`);
}

/** RFC 6750, section 2.1: `Bearer` and a b64token. */
const BEARER_CREDENTIALS = '^Bearer [A-Za-z0-9\\-._~+/]+=*$';
/** The consumer needs JSON; parameters such as charset may follow (RFC 9110, section 8.3.1). */
const JSON_MEDIA_TYPE = '^application/json(;.*)?$';

const bearer = regex(BEARER_CREDENTIALS, `Bearer ${EXAMPLE_TOKEN}`);
const jsonResponse = { 'Content-Type': regex(JSON_MEDIA_TYPE, 'application/json') };

/** The parameters of the provider state: the plant already stored. */
const storedPlant = { name: 'Ficus', id: 3, tag: 'indoor' };

export interface ConsumerInteraction {
  /** Unique within the pact: the verifier names failures by it. */
  readonly description: string;
  /** Adds the interaction - request and expected response - to a Pact V4 consumer pact. */
  addTo(pact: PactV4): V4InteractionWithResponse;
  /** What the consumer does: one call of the typed client against `baseUrl`, sending `token`. */
  exercise(baseUrl: string, token: string): Promise<CreatePlantResult>;
}

const withTag: NewPlant = { name: 'Monstera', id: 1n, tag: 'tropical' };
const withoutTag: NewPlant = { name: 'Fern', id: 2n };
const replacement: NewPlant = { name: 'Fiddle-leaf fig', id: BigInt(storedPlant.id), tag: 'indoor tree' };
/** One past INT64_MAX: a NewPlant by TypeScript's types, not by the contract's int64. */
const beyondInt64: NewPlant = { name: 'Monstera', id: 2n ** 63n };

function interaction(
  description: string,
  declare: (interaction: V4UnconfiguredInteraction) => V4InteractionWithResponse,
  exercise: ConsumerInteraction['exercise'],
): ConsumerInteraction {
  return { description, addTo: (pact) => declare(pact.addInteraction().uponReceiving(description)), exercise };
}

export const interactions: readonly ConsumerInteraction[] = [
  interaction(
    'a request to create a plant with a tag',
    (i) =>
      i
        .withRequest('POST', '/plants', (request) =>
          request.headers({ Authorization: bearer }).jsonBody({ name: withTag.name, id: integer(Number(withTag.id)), tag: withTag.tag }),
        )
        .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody({ name: withTag.name, tag: withTag.tag })),
    (baseUrl, token) => createPlant(baseUrl, token, withTag),
  ),
  interaction(
    'a request to create a plant without a tag',
    (i) =>
      i
        .withRequest('POST', '/plants', (request) => request.headers({ Authorization: bearer }).jsonBody({ name: withoutTag.name, id: integer(Number(withoutTag.id)) }))
        .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody({ name: withoutTag.name })),
    (baseUrl, token) => createPlant(baseUrl, token, withoutTag),
  ),
  interaction(
    'a request to replace a stored plant',
    (i) =>
      i
        .given(PLANT_STORED, storedPlant)
        // The id is literal: it is the stored plant's, which the provider state sets up.
        .withRequest('POST', '/plants', (request) =>
          request.headers({ Authorization: bearer }).jsonBody({ name: replacement.name, id: storedPlant.id, tag: replacement.tag }),
        )
        .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody({ name: replacement.name, tag: replacement.tag })),
    (baseUrl, token) => createPlant(baseUrl, token, replacement),
  ),
  interaction(
    'a request with an id beyond int64',
    (i) =>
      i
        // Written as text: the literal body is the point, and a JS number cannot hold 2^63 exactly.
        .withRequest('POST', '/plants', (request) => request.headers({ Authorization: bearer }).jsonBody(stringifyJson(beyondInt64)))
        .willRespondWith(400, (response) => response.headers(jsonResponse).jsonBody({ error: integer(400), message: string('id: must be an int64 integer') })),
    (baseUrl, token) => createPlant(baseUrl, token, beyondInt64),
  ),
  interaction(
    'a request without credentials',
    (i) =>
      i
        .withRequest('POST', '/plants', (request) => request.jsonBody({ name: withTag.name, id: integer(Number(withTag.id)), tag: withTag.tag }))
        .willRespondWith(401, (response) => response.headers(jsonResponse).jsonBody({ error: integer(401), message: string('authorization: missing bearer credentials') })),
    (baseUrl) => createPlant(baseUrl, undefined, withTag),
  ),
];

/** A Pact V4 consumer pact between the kit's client and the Plant Store, written to `dir`. */
export function consumerPact(dir: string): PactV4 {
  return new PactV4({ consumer: CONSUMER, provider: PROVIDER, dir, logLevel: 'error' });
}

/**
 * Works around a race in Pact's mock server (pact-foundation/pact-core-mock-server#13, from pact-js
 * 16.3 on): it records a match on another task after it has answered, so on a busy machine
 * `executeTest`, reading the record at once, can report a request the mock did answer as
 * "expected but not received". This waits, a bounded time, until the mock server has recorded
 * every request it expects; a request that did not match never is, and Pact then reports it.
 */
async function matchesRecorded(port: number, timeoutMs = 2000): Promise<void> {
  const ffi = getFfiLib();
  const deadline = Date.now() + timeoutMs;
  while (!ffi.pactffiMockServerMatched(port) && Date.now() < deadline) await delay(5);
}

/** Runs one interaction against Pact's mock server with the typed client; resolves with what the client made of the answer. */
export async function runAgainstMock(interaction: ConsumerInteraction, pact: PactV4, token: string): Promise<CreatePlantResult | undefined> {
  return interaction.addTo(pact).executeTest(async (mock) => {
    const result = await interaction.exercise(mock.url, token);
    await matchesRecorded(mock.port);
    return result;
  });
}

/**
 * Writes the consumer contract to `dir` the way a consumer test does: each interaction is run
 * against Pact's mock server (on 127.0.0.1, a free port) with the typed client, and Pact writes
 * the pact once the mock server received what it expected. Resolves with the pact file.
 * `dir` should be empty: Pact merges into an existing file.
 */
export async function recordPacts(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const pact = consumerPact(dir);
  // A token that exists only for this run: were it written into the pact, the tests would see it.
  const token = randomBytes(12).toString('base64url');
  for (const interaction of interactions) await runAgainstMock(interaction, pact, token);
  return pactFileIn(dir);
}
