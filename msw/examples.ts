/**
 * The 'examples' mode's answer: what the mock answers in its default (static) mode, picked from
 * the contract without Prism, whose engine reads files and does not run in the browser. Prism's
 * choice, kept: the lowest declared 2xx response, its application/json content (else its first), the first of its
 * `examples` (else its `example`, else a value generated from its schema), and each declared header's example. The pick is then held to
 * the contract by the mock's own guard (mock/keep-contract.ts) before it leaves.
 */
import { generateValue, type Contract, type OperationContract, type Schema } from '../src/openapi/portable.js';
import type { AppResponse, PlantStoreError } from '../src/http/portable.js';
import { internal, keepContract } from '../mock/portable.js';

function record(value: unknown): Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Schema) : {};
}

/** The example value an OpenAPI media type or header object declares first (else its schema's), `$ref`s followed; undefined when none. */
function firstExample(contract: Contract, node: Schema): unknown {
  const [first] = Object.values(record(node.examples));
  if (first !== undefined) return contract.resolve(record(first)).value;
  if (node.example !== undefined) return node.example;
  const schema = record(contract.resolve(record(node.schema)));
  if (schema.example !== undefined) return schema.example;
  // JSON Schema's `examples` (2020-12, section 9.5): what the upgrade makes of 3.0's schema `example`.
  return Array.isArray(schema.examples) ? (schema.examples[0] as unknown) : undefined;
}

/**
 * A value made from a media type's schema, where it shows no example: what Prism's static mode
 * answers then (the reference's generator, one seed: the same value every time); undefined without a schema.
 */
function generatedBody(contract: Contract, node: Schema): unknown {
  if (node.schema === undefined) return undefined;
  return generateValue(record(node.schema), { resolve: (schema) => contract.resolve(schema) }).value;
}

/** The success example answer of each operation, worked out once: an operation without one is a defect of the contract's examples, said in a 500 Error. */
export function exampleAnswers(contract: Contract): (operation: OperationContract) => AppResponse | PlantStoreError {
  const answers = new Map<OperationContract, AppResponse | PlantStoreError>();
  const responsesOf = (operation: OperationContract): Schema =>
    record(record(record(record(contract.document.paths)[operation.path])[operation.method.toLowerCase()]).responses);
  const pick = (operation: OperationContract): AppResponse | PlantStoreError => {
    const status = operation.declaredStatuses.find((declared) => declared >= 200 && declared < 300);
    if (status === undefined) return internal(`${operation.method} ${operation.path} declares no 2xx response to answer with`);
    const response = contract.resolve(record(responsesOf(operation)[String(status)]));
    // Its application/json content where it has one, else its first media type (problem+json, text, XML).
    const content = record(response.content);
    const mediaType = 'application/json' in content ? 'application/json' : (Object.keys(content)[0] ?? 'application/json');
    const body = firstExample(contract, record(content[mediaType])) ?? generatedBody(contract, record(content[mediaType]));
    // A range (`*` + `/*`) is answered as JSON where its example is JSON, else as bytes.
    const headers: Record<string, string> = { 'content-type': !mediaType.includes('*') ? mediaType : typeof body === 'string' ? 'application/octet-stream' : 'application/json' };
    for (const [name, header] of Object.entries(record(response.headers))) {
      const value = firstExample(contract, contract.resolve(record(header)));
      if (value !== undefined) headers[name.toLowerCase()] = typeof value === 'string' ? value : JSON.stringify(value);
    }
    return keepContract(contract, operation, { kind: 'response', status, headers, body }, "the contract's example");
  };
  return (operation) => {
    let answer = answers.get(operation);
    if (answer === undefined) {
      answer = pick(operation);
      answers.set(operation, answer);
    }
    return answer;
  };
}
