/**
 * The reference Plant Store as a function from a request to a response, with no socket: tests
 * call `app.request()`, the socket layer (listen.ts) calls `admit()` on the head and `complete()`
 * on the body so that credentials are checked before any of the body is read.
 */
import { integerText, isLosslessNumber, LosslessNumber, loadContract, stringifyJson, type Contract, type JsonObject, type OperationContract } from '../openapi/index.js';
import {
  acceptTokens,
  checkHead,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_DEPTH,
  errorBodyText,
  parseRequestBody,
  PlantStoreError,
  tooLarge,
  type HeaderLookup,
  type TokenPolicy,
} from '../http/index.js';
import { DEFAULT_MAX_ENTRIES, PlantStore } from './store.js';

export interface AppOptions {
  /** Accepted bearer tokens; at least one. */
  readonly tokens: readonly string[];
  readonly maxBodyBytes?: number;
  readonly maxDepth?: number;
  readonly maxEntries?: number;
  readonly contract?: Contract;
}

export type Headers = HeaderLookup;

export interface AppRequest {
  readonly method: string;
  readonly url: string;
  /** Lower-case names, as node:http gives them. */
  readonly headers: Headers;
  readonly body?: Uint8Array | string;
}

export interface AppResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The catalogue code of an Error answer, for logs and tests. */
  readonly code?: string;
  /** For a 500 (a defect of the kit): the exception behind it, for the server's log; never sent. */
  readonly cause?: unknown;
}

/** A request whose head passed: the body may now be read. */
export interface Admitted {
  readonly operation: OperationContract;
}

export interface App {
  readonly contract: Contract;
  readonly store: PlantStore;
  readonly maxBodyBytes: number;
  /** Checks route, credentials, media type and declared length. */
  admit(method: string, url: string, headers: Headers): Admitted | AppResponse;
  /** Answers an admitted request from its whole body. */
  complete(admitted: Admitted, body: Uint8Array): AppResponse;
  /** The answer to a body that went over the limit while it was read. */
  bodyTooLarge(): AppResponse;
  /** The whole exchange in one call (no socket). */
  request(request: AppRequest): AppResponse;
}

const JSON_HEADERS = { 'content-type': 'application/json' } as const;

export function errorResponse(error: PlantStoreError): AppResponse {
  const response = { status: error.status, headers: hasAny(error.headers) ? { ...JSON_HEADERS, ...error.headers } : JSON_HEADERS, body: errorBodyText(error.status, error.message), code: error.code };
  return error.code === 'internal' ? { ...response, cause: error.cause ?? error.message } : response;
}

function hasAny(headers: Readonly<Record<string, string>>): boolean {
  for (const name in headers) if (Object.hasOwn(headers, name)) return true;
  return false;
}

export function createApp(options: AppOptions): App {
  if (options.tokens.length === 0) throw new Error('the reference server needs at least one token');
  const contract = options.contract ?? loadContract();
  const accept: TokenPolicy = acceptTokens(options.tokens);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const store = new PlantStore(options.maxEntries ?? DEFAULT_MAX_ENTRIES);

  // Worked out once per operation: the admitted request (no object per request) and how each
  // declared property of its body is written back.
  const prepared = new Map<OperationContract, Prepared>(contract.operations.map((operation) => [operation, prepare(operation)]));
  const preparedFor = (operation: OperationContract): Prepared => prepared.get(operation) ?? prepare(operation);

  const admit = (method: string, url: string, headers: Headers): Admitted | AppResponse => {
    const operation = checkHead(contract, method, url, headers, { accept, maxBodyBytes });
    return operation instanceof PlantStoreError ? errorResponse(operation) : preparedFor(operation);
  };

  const complete = ({ operation }: Admitted, body: Uint8Array): AppResponse => {
    if (body.length > maxBodyBytes) return errorResponse(tooLarge(maxBodyBytes));
    const value = parseRequestBody(operation, body, maxDepth);
    if (value instanceof PlantStoreError) return errorResponse(value);
    return { status: 200, headers: JSON_HEADERS, body: storePlant(preparedFor(operation).members, value) };
  };

  /**
   * Rule 1 and decisions 2 and 3: stores the declared properties, keyed by the exact id, and
   * gives the plant as stored, as JSON text written member by member while it is built.
   */
  const storePlant = (members: readonly Member[], body: JsonObject): string => {
    const plant: JsonObject = {};
    let text = '';
    let id: string | undefined;
    for (const { name, key, integer: declaredInteger } of members) {
      const value = body[name];
      if (value === undefined || !Object.hasOwn(body, name)) continue;
      // Integers are written back in canonical form: 1e2 and 100.0 are stored as 100.
      const integer = declaredInteger && isLosslessNumber(value) ? integerText(value) : undefined;
      let member: string;
      if (integer === undefined) {
        plant[name] = value;
        member = typeof value === 'string' ? JSON.stringify(value) : stringifyJson(value);
      } else {
        member = integer;
        plant[name] = isLosslessNumber(value) && value.value === integer ? value : new LosslessNumber(integer);
      }
      text += (text === '' ? '{' : ',') + key + member;
      if (name === 'id' && integer !== undefined) id = integer;
    }
    if (id === undefined) throw new Error('the contract validated a NewPlant without an integer id');
    store.put(id, plant);
    return `${text}}`;
  };

  return {
    contract,
    store,
    maxBodyBytes,
    admit,
    complete,
    bodyTooLarge: () => errorResponse(tooLarge(maxBodyBytes)),
    request: (request) => {
      try {
        const admitted = admit(request.method, request.url, request.headers);
        if ('status' in admitted) return admitted;
        const body = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : (request.body ?? new Uint8Array());
        return complete(admitted, body);
      } catch (cause) {
        return internalError(cause);
      }
    },
  };
}

/** A declared property of a request body: its name, its JSON key text (`"name":`), and whether the contract types it integer. */
interface Member {
  readonly name: string;
  readonly key: string;
  readonly integer: boolean;
}

interface Prepared extends Admitted {
  readonly members: readonly Member[];
}

function prepare(operation: OperationContract): Prepared {
  const properties = [...(operation.requestBody?.shape.properties ?? [])];
  return { operation, members: properties.map(([name, schema]) => ({ name, key: `${JSON.stringify(name)}:`, integer: schema.type === 'integer' })) };
}

export function internalError(cause: unknown): AppResponse {
  return errorResponse(new PlantStoreError('internal', 'internal: the reference server failed; this is a defect of the kit', { cause }));
}
