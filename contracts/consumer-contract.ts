/**
 * The kit's consumer contract: what a client of the Plant Store (the typed client of client.ts)
 * expects from each operation of the store's collection/item pattern, as Pact V4 interactions made
 * from the contract (consumer-data.ts gives the data): the create operation with each of its
 * request examples, a replacement through it, an int64 key beyond range and missing credentials;
 * where the contract declares them, the list, read, replace and delete of a stored item, each
 * given the provider state "a plant is stored", and the read of one that is not (state "no plant
 * is stored under the key") where a 404 is declared. Each interaction is declared once here and used
 * twice: test/contracts/consumer.test.ts runs it against Pact's mock server and checks what the
 * client makes of the answer (and writes contracts/pacts/), and `recordPacts` writes the same pact
 * for `plant-store verify`, which needs it after a fresh `npm ci` where no test has run.
 *
 * Matchers stand wherever the consumer does not care about the literal value (keys it did not
 * choose, error codes, error messages, the token, media type parameters). Texts are literal: the
 * consumer shows the item as stored, so what it sent must come back (docs/DESIGN.md, decision 3).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { getFfiLib } from '@pact-foundation/pact-core';
import { defaultContractFile, INT64_MAX, isJsonObject, isLosslessNumber, loadContract, parseJson, stringifyJson, type Contract, type JsonValue, type OperationContract } from '../src/openapi/index.js';
import { callOperation, decode, type AnyResult, type OperationRequest } from './client.js';
import { ABSENT_KEY, consumerData, NoConsumerContractError, project, STORED_KEY, successStatus, type ConsumerData, type Item } from './consumer-data.js';
import { mediaExchanges, type MediaExchange } from './media-operations.js';
import { CONSUMER, EXAMPLE_TOKEN, PLANT_ABSENT, PLANT_STORED, PROVIDER } from './names.js';

export { CONSUMER, EXAMPLE_TOKEN, PLANT_ABSENT, PLANT_STORED, PROVIDER };

const { decimal, eachLike, integer, regex, string } = MatchersV3;

// pact-js exports these stages of its builder only as types of its methods.
type V4UnconfiguredInteraction = ReturnType<PactV4['addInteraction']>;
type V4InteractionWithResponse = ReturnType<ReturnType<V4UnconfiguredInteraction['withRequest']>['willRespondWith']>;
type StateParameters = Parameters<V4UnconfiguredInteraction['given']>[1];

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

export interface ConsumerInteraction {
  /** Unique within the pact: the verifier names failures by it. */
  readonly description: string;
  /** Adds the interaction - request and expected response - to a Pact V4 consumer pact. */
  addTo(pact: PactV4): V4InteractionWithResponse;
  /** What the consumer does: one call of the typed client against `baseUrl`, sending `token`. */
  exercise(baseUrl: string, token: string): Promise<AnyResult>;
}

/** One exchange of the consumer with an operation: the request and answer as the pact declares them, and the client's call. */
interface ConsumerExchange {
  readonly description: string;
  readonly operation: OperationContract;
  /** The provider state and its parameters, when the exchange needs one ("a plant is stored", "no plant is stored"). */
  readonly state?: { readonly name: string; readonly parameters: Item };
  /** The concrete path, and the query as the pact writes it. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly credentials: boolean;
  /** The request body as the pact declares it (matchers or literal JSON text), if any. */
  readonly requestBody?: unknown;
  readonly status: number;
  readonly responseBody?: unknown;
  /** What the typed client sends (typed values, int64 as bigint). */
  readonly call: OperationRequest;
}

function toInteraction(exchange: ConsumerExchange, contract: Contract): ConsumerInteraction {
  const { description, operation, state, path, query, credentials, requestBody, status, responseBody, call } = exchange;
  return {
    description,
    addTo: (pact) => {
      const unconfigured = pact.addInteraction().uponReceiving(description);
      return (state === undefined ? unconfigured : unconfigured.given(state.name, state.parameters as StateParameters))
        .withRequest(operation.method, path, (request) => {
          if (query !== undefined) request.query(query);
          if (credentials) request.headers({ Authorization: bearer });
          if (requestBody !== undefined) request.jsonBody(requestBody);
        })
        .willRespondWith(status, (response) => {
          if (responseBody !== undefined) response.headers(jsonResponse).jsonBody(responseBody);
        });
    },
    exercise: (baseUrl, token) => callOperation(operation, baseUrl, credentials ? token : undefined, call, { contract }),
  };
}

/** A value with every number and string matched by its type, strings given `text` as their example where it is given. */
function byType(value: JsonValue | undefined, text?: string): unknown {
  if (isLosslessNumber(value)) return Number.isInteger(Number(value.value)) ? integer(Number(value.value)) : decimal(Number(value.value));
  if (typeof value === 'string') return string(text ?? value);
  if (Array.isArray(value)) return value.map((item) => byType(item, text));
  if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, byType(item, text)]));
  return value;
}

/** The contract's example of an operation's answer with `status`, matched by type. */
function exampleAnswer(operation: OperationContract, status: number, text?: string): unknown {
  return byType(operation.response(status)?.example, text);
}

/** An item as a typed value of the operation's request body (int64 as bigint), for the client to send. */
function typed(item: Item, operation: OperationContract, data: ConsumerData): unknown {
  const schema = operation.requestBody?.schema;
  return schema === undefined ? item : decode(parseJson(JSON.stringify(item)), schema, data.contract);
}

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);
const article = (word: string): string => (/^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`);

/** The create operation: each request example, a replacement, a key beyond int64, no credentials. */
function createExchanges(data: ConsumerData): ConsumerExchange[] {
  const { create, pattern, fullest, stored, replacement, contract } = data;
  const key = pattern.keyProperty;
  const success = successStatus(create) ?? 200;
  const answered = (item: Item): Item => project(item, create.response(success)?.schema, contract);
  const secured = create.security.length > 0;
  const base = { operation: create, path: pattern.collection, credentials: secured, status: success };
  const keyMatched = (item: Item): Item => ({ ...item, [key]: integer(Number(item[key])) });
  const exchanges: ConsumerExchange[] = data.examples.map(({ summary, value }) => ({ ...base, description: `a request to create ${lowerFirst(summary)}`, requestBody: keyMatched(value), responseBody: answered(value), call: { body: typed(value, create, data) } }));
  // The key is literal: it is the stored item's, which the provider state sets up.
  exchanges.push({ ...base, description: 'a request to replace a stored plant', state: { name: PLANT_STORED, parameters: stored }, requestBody: replacement, responseBody: answered(replacement), call: { body: typed(replacement, create, data) } });
  const keySchema = create.requestBody?.shape.properties.get(key);
  if (keySchema !== undefined && contract.resolve(keySchema).format === 'int64' && create.response(400) !== undefined) {
    const required = Object.fromEntries(Object.entries(fullest).filter(([name]) => create.requestBody?.shape.required.has(name)));
    const beyond = { ...(typed(required, create, data) as Item), [key]: INT64_MAX + 1n };
    // Written as text: the literal body is the point, and a JS number cannot hold 2^63 exactly.
    exchanges.push({ ...base, description: `a request with ${article(key)} beyond int64`, requestBody: stringifyJson(beyond), status: 400, responseBody: exampleAnswer(create, 400, `${key}: must be an int64 integer`), call: { body: beyond } });
  }
  if (secured && create.response(401) !== undefined) {
    exchanges.push({ ...base, description: 'a request without credentials', credentials: false, requestBody: keyMatched(fullest), status: 401, responseBody: exampleAnswer(create, 401), call: { body: typed(fullest, create, data) } });
  }
  return exchanges;
}

/** The list's query: an integer parameter at its minimum (a count), a parameter named after a text of the stored item filtering by it. */
function listQuery(list: OperationContract, stored: Item): { readonly pact: Record<string, string>; readonly typed: Record<string, unknown> } {
  const pact: Record<string, string> = {};
  const typedQuery: Record<string, unknown> = {};
  for (const parameter of list.parameters.filter((p) => p.in === 'query' && !p.array)) {
    const value = stored[parameter.name];
    if (parameter.scalar === 'integer') {
      const least = typeof parameter.schema.minimum === 'number' ? Math.max(parameter.schema.minimum, 1) : 1;
      pact[parameter.name] = String(least);
      typedQuery[parameter.name] = parameter.schema.format === 'int64' ? BigInt(least) : least;
    } else if (parameter.scalar === 'string' && typeof value === 'string') {
      pact[parameter.name] = typedQuery[parameter.name] = value;
    }
  }
  return { pact, typed: typedQuery };
}

/** What a list answers at least: items like the stored one, its key and required texts by type, the filtered ones literal. */
function listedItem(list: OperationContract, data: ConsumerData, filtered: Readonly<Record<string, string>>): unknown {
  const schema = list.response(successStatus(list) ?? 200)?.schema;
  const items = schema === undefined ? undefined : data.contract.resolve(schema).items;
  const shape = typeof items === 'object' && items !== null ? data.contract.shapeOf(items as Record<string, unknown>) : undefined;
  const entries = Object.entries(data.stored).filter(([name]) => name in filtered || (shape?.required.has(name) ?? false));
  return Object.fromEntries(entries.map(([name, value]) => [name, name in filtered ? value : byType(parseJson(JSON.stringify(value)))]));
}

/** The item operations the contract declares - list, read, replace, delete - each on the stored item. */
function itemExchanges(data: ConsumerData): ConsumerExchange[] {
  const { pattern, stored, replacement, contract } = data;
  const exchanges: ConsumerExchange[] = [];
  const on = (operation: OperationContract): Pick<ConsumerExchange, 'operation' | 'state' | 'credentials' | 'status'> => ({ operation, state: { name: PLANT_STORED, parameters: stored }, credentials: operation.security.length > 0, status: successStatus(operation) ?? 200 });
  const answered = (operation: OperationContract, item: Item): Item | undefined => {
    const response = operation.response(successStatus(operation) ?? 200);
    return response?.mediaTypes.length === 0 ? undefined : project(item, response?.schema, contract);
  };
  const list = pattern.operations.get('list');
  if (list !== undefined) {
    const query = listQuery(list, stored);
    exchanges.push({ ...on(list), description: 'a request to list the plants', path: pattern.collection, query: query.pact, responseBody: eachLike(listedItem(list, data, query.pact)), call: { query: query.typed } });
  }
  const { item, keyParameter } = pattern;
  if (item === undefined || keyParameter === undefined) return exchanges;
  /** The item path of a key, as the pact writes it and as the client sends it. */
  const at = (key: number): Pick<ConsumerExchange, 'path' | 'call'> => ({ path: item.replace(`{${keyParameter}}`, String(key)), call: { path: { [keyParameter]: BigInt(key) } } });
  const { path, call } = at(STORED_KEY);
  const read = pattern.operations.get('read');
  if (read !== undefined) exchanges.push({ ...on(read), description: 'a request to read a stored plant', path, responseBody: answered(read, stored), call });
  if (read?.response(404) !== undefined) {
    // RFC 9110, section 15.5.5: no current representation for the target resource.
    const absent = { name: PLANT_ABSENT, parameters: { [pattern.keyProperty]: ABSENT_KEY } };
    exchanges.push({ ...on(read), ...at(ABSENT_KEY), state: absent, description: 'a request to read a plant that is not stored', status: 404, responseBody: exampleAnswer(read, 404) });
  }
  const replace = pattern.operations.get('replace');
  if (replace !== undefined) {
    const sent = project(replacement, replace.requestBody?.schema, contract);
    exchanges.push({ ...on(replace), description: 'a request to replace a stored plant at its own path', path, requestBody: sent, responseBody: answered(replace, replacement), call: { ...call, body: typed(sent, replace, data) } });
  }
  const remove = pattern.operations.get('remove');
  if (remove !== undefined) exchanges.push({ ...on(remove), description: 'a request to delete a stored plant', path, responseBody: answered(remove, stored), call });
  return exchanges;
}

type V4RequestBuilder = Parameters<Parameters<V4UnconfiguredInteraction['withRequest']>[2] & object>[0];

/**
 * A request body of text in any media type. pact-js gives text bodies only as JSON and XML
 * (jsonBody, xmlBody) and any other as binary (body(), checked by the content type its bytes look
 * like: a form is "detected" as text/plain and refused); pact-core's withRequestBody, which its
 * xmlBody calls, takes text of any content type, and Pact then matches it by that type: a form
 * field by field (application/x-www-form-urlencoded), text as text.
 */
function textBody(request: V4RequestBuilder, contentType: string, text: string): void {
  (request as unknown as { interaction: { withRequestBody(body: string, contentType: string): boolean } }).interaction.withRequestBody(text, contentType);
}

/** A media type's essence as a regex that allows parameters after it (RFC 9110, section 8.3.1). */
const mediaTypeRegex = (essence: string): string => `^${essence.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(;.*)?$`;

/** An operation of other media than JSON (media-operations.ts): its request's bytes literal, its answer's JSON by type, text by its media type. */
function mediaInteraction(exchange: MediaExchange): ConsumerInteraction {
  const { description, operation, path, query, headers, body, status, answer } = exchange;
  return {
    description,
    addTo: (pact) =>
      pact
        .addInteraction()
        .uponReceiving(description)
        .withRequest(operation.method, path, (request) => {
          if (Object.keys(query).length > 0) request.query(query);
          if (Object.keys(headers).length > 0) request.headers(headers);
          if (body !== undefined) textBody(request, body.contentType, Buffer.from(body.bytes).toString('utf8'));
        })
        .willRespondWith(status, (response) => {
          if (answer.kind === 'none') return;
          response.headers({ 'Content-Type': regex(mediaTypeRegex(answer.mediaType), answer.mediaType) });
          if (answer.kind === 'json') response.jsonBody(byType(answer.value));
        }),
    exercise: async (baseUrl) => {
      const url = new URL(`${baseUrl.replace(/\/$/, '')}${path}`);
      for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
      const answered = await fetch(url, { method: operation.method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': body.contentType }) }, ...(body === undefined ? {} : { body: Buffer.from(body.bytes) }) });
      return { status: answered.status, body: await answered.text() };
    },
  };
}

/**
 * The consumer contract of `contract` (openapi.yaml of the kit by default): one interaction per
 * exchange the consumer relies on - the collection/item pattern's, where the contract has one
 * with a JSON create, and one per operation of other media that Pact can hold.
 */
export function consumerInteractions(contract: Contract = loadContract()): ConsumerInteraction[] {
  const media = mediaExchanges(contract).exchanges.map(mediaInteraction);
  try {
    const data = consumerData(contract);
    return [...[...createExchanges(data), ...itemExchanges(data)].map((exchange) => toInteraction(exchange, contract)), ...media];
  } catch (error) {
    if (error instanceof NoConsumerContractError && media.length > 0) return media;
    throw error;
  }
}

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
export async function runAgainstMock(interaction: ConsumerInteraction, pact: PactV4, token: string): Promise<AnyResult | undefined> {
  return interaction.addTo(pact).executeTest(async (mock) => {
    const result = await interaction.exercise(mock.url, token);
    await matchesRecorded(mock.port);
    return result;
  });
}

/**
 * Writes the consumer contract of `contract` to `dir` the way a consumer test does: each interaction is run
 * against Pact's mock server (on 127.0.0.1, a free port) with the typed client, and Pact writes
 * the pact once the mock server received what it expected. Resolves with the pact file.
 * `dir` should be empty: Pact merges into an existing file.
 */
export async function recordPacts(dir: string, contract: Contract = loadContract()): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const pact = consumerPact(dir);
  // A token that exists only for this run: were it written into the pact, the tests would see it.
  const token = randomBytes(12).toString('base64url');
  for (const interaction of consumerInteractions(contract)) await runAgainstMock(interaction, pact, token);
  return pactFileIn(dir);
}
