/**
 * The reference Plant Store: its answer - store the plant, give it back as stored - behind the
 * shared pipeline (src/http/pipeline.ts), which judges every request first. No socket: tests call
 * `app.request()`; `listen(app)` (src/http) serves it.
 */
import type { Contract, OperationContract } from '../openapi/contract.js';
import { integerText, isLosslessNumber, LosslessNumber, stringifyJson, type JsonObject } from '../openapi/json.js';
import { JSON_HEADERS, type AppResponse } from '../http/exchange.js';
import { journalSeams } from '../http/journal.js';
import { createPipeline, type Admitted, type Pipeline, type ServerSettings } from '../http/pipeline.js';
import { acceptTokens } from '../http/rules.js';
import { DEFAULT_MAX_ENTRIES, PlantStore } from './store.js';

export interface AppOptions extends ServerSettings {
  /** Accepted bearer tokens; at least one. */
  readonly tokens: readonly string[];
  readonly maxEntries?: number;
  /** Answer CORS preflights and let pages from any origin read every answer (off by default). */
  readonly cors?: boolean;
}

/** An admitted request: its operation, worked out once with how each declared property of its body is written back. */
export interface StoreAdmitted extends Admitted {
  readonly members: readonly Member[];
}

export interface App extends Pipeline<StoreAdmitted, AppResponse> {
  readonly store: PlantStore;
}

/**
 * The reference over a given contract, runtime-neutral (the MSW handlers run it in the browser);
 * `createApp` (default-app.ts) takes the kit's openapi.yaml when none is given.
 */
export function createStoreApp(contract: Contract, options: AppOptions): App {
  if (options.tokens.length === 0) throw new Error('the reference server needs at least one token');
  const store = new PlantStore(options.maxEntries ?? DEFAULT_MAX_ENTRIES);

  // Worked out once per operation, so that admitting a request makes no object.
  const prepared = new Map<OperationContract, StoreAdmitted>(contract.operations.map((operation) => [operation, prepare(operation)]));

  /**
   * Rule 1 and decisions 2 and 3: stores the declared properties, keyed by the exact id, and
   * gives the plant as stored, as JSON text written member by member while it is built.
   */
  const storePlant = ({ members }: StoreAdmitted, body: JsonObject): AppResponse => {
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
    return { status: 200, headers: JSON_HEADERS, body: `${text}}` };
  };

  const pipeline = createPipeline({
    contract,
    accept: acceptTokens(options.tokens),
    maxBodyBytes: options.maxBodyBytes,
    maxDepth: options.maxDepth,
    cors: options.cors,
    onDefect: options.onDefect,
    ...journalSeams(options.journal, options.admin, 'start the reference with --journal (startReference({ journal: true }))'),
    answer: {
      admit: (operation) => prepared.get(operation) ?? prepare(operation),
      respond: storePlant,
    },
  });
  return { ...pipeline, store };
}

/** A declared property of a request body: its name, its JSON key text (`"name":`), and whether the contract types it integer. */
interface Member {
  readonly name: string;
  readonly key: string;
  readonly integer: boolean;
}

function prepare(operation: OperationContract): StoreAdmitted {
  const properties = [...(operation.requestBody?.shape.properties ?? [])];
  return { operation, members: properties.map(([name, schema]) => ({ name, key: `${JSON.stringify(name)}:`, integer: schema.type === 'integer' })) };
}
