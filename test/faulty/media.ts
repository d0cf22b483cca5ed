/**
 * Implementations of a contract with a form-encoded create and a multipart upload
 * (test/fixtures/contracts/seed-forms.yaml) with one defect in how they read those media types,
 * each naming the check that must catch it (issue 29). Each is the kit's reference of the
 * contract, with the defect made from the contract - which fields, which parts - never from a
 * path or a name written here.
 */
import { fileURLToPath } from 'node:url';
import type { CheckName } from '../../fuzz/index.js';
import { compileContract, decodeBody, loadContract, Malformed, variantFor, type Contract, type MediaVariant } from '../../src/openapi/index.js';
import type { AppRequest } from '../../src/reference/index.js';
import { startFaulty, type Fault } from '../support/servers.js';
import { parse as parseYaml } from 'yaml';
import { readFileSync } from 'node:fs';

export const MEDIA_CONTRACT_FILE = fileURLToPath(new URL('../fixtures/contracts/seed-forms.yaml', import.meta.url));

export interface MediaImplementation {
  readonly name: string;
  readonly defect?: string;
  readonly start: () => ReturnType<typeof startFaulty>;
}

/** The request body's variant the request's Content-Type picks, if any. */
function variantOf(contract: Contract, request: AppRequest): MediaVariant | undefined {
  const operation = contract.findOperation(request.method, request.url.split('?', 1)[0] ?? request.url);
  const contentType = request.headers['content-type'];
  return operation?.requestBody === undefined ? undefined : variantFor(operation.requestBody.variants, typeof contentType === 'string' ? contentType : undefined);
}

/** Drops every `minimum` and `maximum` from the schemas of the document's form bodies: the framework's binder never reads them. */
function withoutFormBounds(document: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(document);
  const strip = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    delete record.minimum;
    delete record.maximum;
    Object.values(record).forEach(strip);
  };
  // Every schema a form body reaches: its own, and the components it refers to (the read answers share them, and keep no bound either).
  strip((copy.components as Record<string, unknown> | undefined)?.schemas);
  return copy;
}

/** The multipart body of a request with its first optional part (by the variant's schema) taken out, written again by the same codec. */
function withoutOptionalPart(variant: MediaVariant, request: AppRequest): AppRequest {
  const contentType = String(request.headers['content-type']);
  const body = typeof request.body === 'string' ? Buffer.from(request.body, 'latin1') : (request.body ?? new Uint8Array(0));
  const value = decodeBody(variant.codec, body, { maxDepth: 64 }, { contentType, fields: variant.fields });
  if (value instanceof Malformed || typeof value !== 'object' || value === null || Array.isArray(value)) return request;
  const schema = variant.schema ?? {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const optional = Object.keys(value).find((name) => !required.has(name));
  if (optional === undefined) return request;
  const kept = Object.fromEntries(Object.entries(value).filter(([name]) => name !== optional));
  return { ...request, body: Buffer.from(variant.codec.encode(kept, { contentType, fields: variant.fields })) };
}

const contract = loadContract(MEDIA_CONTRACT_FILE);

const dropsPart: Fault = (request, correct, app) => {
  const variant = variantOf(contract, request);
  return variant?.codec.name === 'multipart' ? app.request(withoutOptionalPart(variant, request)) : correct();
};

export const MEDIA_FAULTS: readonly (MediaImplementation & { readonly caughtBy: CheckName })[] = [
  {
    name: 'form-bounds-ignored',
    defect: "a form field's minimum and maximum are not enforced (the form binder reads the types only)",
    caughtBy: 'rejects-invalid',
    start: () => {
      const loose = compileContract(withoutFormBounds(parseYaml(readFileSync(MEDIA_CONTRACT_FILE, 'utf8')) as Record<string, unknown>), '<seed forms without bounds>');
      return startFaulty((_request, correct) => correct(), { contract: loose });
    },
  },
  {
    name: 'multipart-part-dropped',
    defect: 'the upload stores the form without its first optional part',
    caughtBy: 'echo',
    start: () => startFaulty(dropsPart, { contract }),
  },
];

/** The kit's own reference of the contract: it must keep it. */
export const MEDIA_REFERENCE: MediaImplementation = { name: 'the reference of a contract with a form create and a multipart upload', start: () => startFaulty((_request, correct) => correct(), { contract }) };
