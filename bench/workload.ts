/**
 * The traffic the benchmarks send: POST /plants bodies that are valid, invalid and at the int64
 * edges, each with the status the reference implementation must answer. The bodies are data,
 * not a restatement of the schema: `checkWorkload` asks the contract whether each one is a
 * valid NewPlant and refuses to run a mix that disagrees with openapi.yaml.
 */
import type autocannon from 'autocannon';
import type { Content, Credentials, KindName } from '../fuzz/index.js';
import { loadContract, parseJson, type OperationContract } from '../src/openapi/index.js';

export const BENCH_TOKEN = 'bench-token';
export const PATH = '/plants';

export interface Kind {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Buffer;
  /** The status the reference implementation answers. */
  readonly expect: number;
  /** For valid NewPlants: true, so the contract is asked to agree; false for bodies that must fail it. */
  readonly validNewPlant?: boolean;
  /**
   * What the request is in the conformance engine's terms, so its checks know what to expect;
   * undefined for requests that are no operation of the contract (another path or method).
   */
  readonly label?: KindName;
  /** Whether the body and media type make a valid request (see RequestCase.content); valid unless said. */
  readonly content?: Content;
  readonly credentials?: Credentials;
}

export const JSON_AUTH = { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' } as const;

const post = (name: string, body: string, expect: number, validNewPlant: boolean | undefined, label: KindName): Kind => ({
  name,
  method: 'POST',
  path: PATH,
  headers: JSON_AUTH,
  body,
  expect,
  ...(validNewPlant === undefined ? {} : { validNewPlant }),
  label,
  content: label === 'valid' ? 'valid' : 'invalid',
  credentials: 'valid',
});

/**
 * The benchmark mix: half valid (two at the int64 edges, one past 2^53), half invalid (missing
 * id, id past int64, null tag, malformed JSON). The same bodies for every target.
 */
export const BENCH_MIX: readonly Kind[] = [
  post('valid', '{"name":"Monstera","id":1,"tag":"tropical"}', 200, true, 'valid'),
  post('valid-int64-max', '{"name":"Fern","id":9223372036854775807}', 200, true, 'valid'),
  post('missing-id', '{"name":"Aloe","tag":"succulent"}', 400, false, 'invalid-body'),
  post('valid-2^53+1', '{"name":"Ficus","id":9007199254740993,"tag":"indoor"}', 200, true, 'valid'),
  post('id-past-int64', '{"name":"Aloe","id":9223372036854775808}', 400, false, 'invalid-body'),
  post('valid-int64-min', '{"name":"Cactus","id":-9223372036854775808,"tag":"desert"}', 200, true, 'valid'),
  post('null-tag', '{"name":"Aloe","id":3,"tag":null}', 400, false, 'invalid-body'),
  post('malformed-json', '{"name":"Aloe","id":', 400, undefined, 'malformed-json'),
];

/**
 * The soak adds what a long-running server meets besides plant bodies: bad credentials, other
 * paths and methods, other media types, invalid UTF-8, deep nesting, a body that is not an object.
 */
export function soakExtras(maxDepth: number): Kind[] {
  const contentTypeOnly = { 'content-type': JSON_AUTH['content-type'] };
  const valid = '{"name":"Monstera","id":1}';
  const invalid = { method: 'POST', path: PATH, headers: JSON_AUTH, expect: 400, credentials: 'valid' } as const;
  return [
    { name: 'no-credentials', method: 'POST', path: PATH, headers: contentTypeOnly, body: valid, expect: 401, label: 'bad-auth', credentials: 'missing' },
    { name: 'unknown-token', method: 'POST', path: PATH, headers: { ...JSON_AUTH, authorization: 'Bearer not-the-token' }, body: valid, expect: 401, label: 'bad-auth', credentials: 'wrong-token' },
    { name: 'basic-scheme', method: 'POST', path: PATH, headers: { ...JSON_AUTH, authorization: 'Basic Ym9iOnNlY3JldA==' }, body: valid, expect: 401, label: 'bad-auth', credentials: 'other-scheme' },
    { name: 'other-path', method: 'POST', path: '/plants/1', headers: JSON_AUTH, body: valid, expect: 404 },
    { name: 'other-method', method: 'GET', path: PATH, headers: { authorization: JSON_AUTH.authorization }, body: '', expect: 405 },
    { ...invalid, name: 'text-plain', headers: { ...JSON_AUTH, 'content-type': 'text/plain' }, body: valid, label: 'bad-media-type', content: 'invalid' },
    { ...invalid, name: 'invalid-utf8', body: Buffer.from([...Buffer.from('{"name":"'), 0xc3, 0x28, ...Buffer.from('","id":1}')]), label: 'malformed-json', content: 'invalid' },
    // Valid by the schema, refused by the kit's nesting limit (docs/DESIGN.md, decision 6).
    { ...invalid, name: 'too-deep', body: `{"name":"a","id":1,"x":${'['.repeat(maxDepth + 1)}${']'.repeat(maxDepth + 1)}}`, label: 'invalid-body', content: 'invalid' },
    { ...invalid, name: 'not-an-object', body: '[1,2,3]', label: 'invalid-body', content: 'invalid' },
  ];
}

/**
 * A body one byte over the limit. The server answers it and then closes the connection, which
 * autocannon does not follow (its queue of requests in flight goes out of step), so the soak
 * sends this one on its own connections beside the load.
 */
export function overLimitKind(maxBodyBytes: number): Kind {
  const padding = maxBodyBytes + 1 - '{"name":"","id":1}'.length;
  // A valid NewPlant by the schema, refused for its size (docs/DESIGN.md, decision 6).
  return post('over-limit', `{"name":"${'a'.repeat(padding)}","id":1}`, 400, true, 'invalid-body');
}

/**
 * A new int64 id on each call, spread over the whole range (both signs, far past 2^53): an odd
 * multiplier is a bijection modulo 2^63, so no id repeats within 2^62 calls.
 */
export function idSequence(): () => string {
  let sequence = 0n;
  return () => {
    sequence++;
    const magnitude = (sequence * 0x9e3779b97f4a7c15n) & (2n ** 63n - 1n);
    return ((sequence & 1n) === 1n ? -magnitude : magnitude).toString();
  };
}

export function addPlantOperation(): OperationContract {
  const operation = loadContract().findOperation('POST', PATH);
  if (!operation?.requestBody) throw new Error(`openapi.yaml declares no POST ${PATH} with a request body`);
  return operation;
}

/** Throws when a body the mix calls valid is not a NewPlant by the contract, or the other way round. */
export function checkWorkload(kinds: readonly Kind[], operation: OperationContract = addPlantOperation()): void {
  for (const kind of kinds) {
    if (kind.validNewPlant === undefined) continue;
    const validation = operation.requestBody?.validate(parseJson(kind.body.toString()));
    if (validation?.valid !== kind.validNewPlant) {
      throw new Error(`workload ${kind.name}: the contract says ${validation?.valid === true ? 'valid' : 'invalid'}, the mix says ${kind.validNewPlant ? 'valid' : 'invalid'}`);
    }
  }
}

/** The mix as autocannon requests (each connection cycles through them in order). */
export function toRequests(kinds: readonly Kind[]): autocannon.Request[] {
  return kinds.map((kind) => ({ method: kind.method, path: kind.path, headers: { ...kind.headers }, body: kind.body }));
}
