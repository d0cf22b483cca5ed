/**
 * Pact provider verification of any Plant Store implementation, with pact-js's own Verifier: its
 * proxy runs the provider states and the request filter, its native core replays every
 * interaction against the target and compares the answers. Between its proxy and the target sits
 * the kit's forwarder (forwarder.ts), so a target that resets or stalls fails interactions
 * instead of hanging the run.
 *
 * Split so the wiring can be tested without a broker: `verifierOptions` (verifier-options.ts) is a
 * pure function of the flags and the environment; `stateHandlers` and `bearerFilter` are the two
 * functions the proxy calls; `readVerifierResult` turns the core's JSON report into data.
 * `verify` in cli/ runs them.
 *
 * This module imports pact-js at run time; import it only after PACT_DO_NOT_TRACK is set.
 */
import { Verifier, type VerifierOptions } from '@pact-foundation/pact';
import { formatIssues, httpBearer, isJsonObject, loadContract, parseJson, stringifyJson, type Contract, type JsonValue } from '../src/openapi/index.js';
import { callOperation, createPlant, toNewPlant } from './client.js';
import { consumerPattern } from './consumer-data.js';
import { startForwarder, type ForwardingFailure } from './forwarder.js';
import { placedCredentials, type PlacedCredential } from '../src/http/index.js';
import { EXAMPLE_TOKEN, PLANT_ABSENT, PLANT_STORED } from './names.js';
import { DEFAULT_VERIFY_TIMEOUT_MS, verifierOptions, type Environment, type VerifyFlags } from './verifier-options.js';

/** The part of an Express request the filter touches (pact-js's proxy is an Express app). */
export interface FilteredRequest {
  headers: Record<string, string | string[] | undefined>;
  /** The request target (Express's `req.url`): a query's API key is replaced there. */
  url?: string;
  /** The body as pact-js's proxy parsed it (body-parser): a form as an object, anything else as bytes. */
  body?: unknown;
}
export type RequestFilter = (request: FilteredRequest, response: unknown, next: () => void) => void;

/**
 * Replaces the credentials of every replayed request that carries any with `Bearer <token>`, so
 * the provider's real token is sent without ever being in a pact. A request without an
 * Authorization header (the missing-credentials interaction) is left without one. With no token,
 * requests go as the pact wrote them (the example token: enough for a mock that accepts any).
 */
export function bearerFilter(token: string | undefined): RequestFilter {
  return (request, _response, next) => {
    if (token !== undefined && request.headers.authorization !== undefined) request.headers.authorization = httpBearer.write(token);
    next();
  };
}

/**
 * The bearer filter, then each credential given per scheme (`--auth`, placedCredentials) put in
 * place of the pact's example where the request carries one there (its header, query parameter or
 * cookie; Authorization where the scheme word is the same), and the plain `--header` fields added
 * to every request. A request without credentials at a place stays without: the refusals recorded
 * in the pacts are replayed as they are.
 */
export function credentialFilter(token: string | undefined, placed: readonly PlacedCredential[] = [], fields: Readonly<Record<string, string>> = {}): RequestFilter {
  const bearer = bearerFilter(token);
  return (request, response, next) => {
    restoreForm(request);
    bearer(request, response, () => undefined);
    for (const credential of placed) replaceCredential(request, credential);
    for (const [name, value] of Object.entries(fields)) request.headers[name] = value;
    next();
  };
}

/** A form's fields as body-parser's extended reading gives them, written back: arrays as repeated names, objects as `name[key]`. */
function formPairs(name: string, value: unknown): [string, string][] {
  if (Array.isArray(value)) return value.flatMap((item) => formPairs(name, item));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, item]) => formPairs(`${name}[${key}]`, item));
  return [[name, String(value)]];
}

/**
 * pact-js's proxy parses a form body (body-parser's urlencoded) and forwards JSON.stringify of the
 * fields, still labelled application/x-www-form-urlencoded: no server reads that as the form the
 * pact holds. This writes the fields back as a form (the WHATWG serialiser: what the consumer
 * sent, for a form of plain fields), with its Content-Length.
 */
function restoreForm(request: FilteredRequest): void {
  const type = request.headers['content-type'];
  if (typeof type !== 'string' || !/^application\/x-www-form-urlencoded\b/i.test(type)) return;
  if (typeof request.body !== 'object' || request.body === null || Buffer.isBuffer(request.body)) return;
  const text = new URLSearchParams(Object.entries(request.body).flatMap(([name, value]) => formPairs(name, value))).toString();
  request.body = Buffer.from(text, 'utf8');
  request.headers['content-length'] = String(Buffer.byteLength(text));
}

function replaceCredential(request: FilteredRequest, { place, written }: PlacedCredential): void {
  if (place.in === 'header') {
    const present = request.headers[place.name];
    if (typeof present !== 'string') return;
    const word = (text: string): string => text.split(' ', 1)[0]?.toLowerCase() ?? '';
    if (place.name !== 'authorization' || word(present) === word(written)) request.headers[place.name] = written;
  } else if (place.in === 'query' && request.url !== undefined) {
    const mark = request.url.indexOf('?');
    if (mark < 0) return;
    const query = new URLSearchParams(request.url.slice(mark + 1));
    if (!query.has(place.name)) return;
    query.set(place.name, written);
    request.url = `${request.url.slice(0, mark)}?${query.toString()}`;
  } else if (place.in === 'cookie' && typeof request.headers.cookie === 'string') {
    request.headers.cookie = request.headers.cookie
      .split(';')
      .map((pair) => (pair.trim().startsWith(`${place.name}=`) ? `${pair.slice(0, pair.indexOf(place.name))}${place.name}=${written}` : pair))
      .join(';');
  }
}

type StateHandlers = NonNullable<VerifierOptions['stateHandlers']>;

/**
 * Provider states, set up through the target's own interface (the kit cannot reach into an
 * arbitrary implementation's storage): "a plant is stored" sends that plant through the contract's
 * create operation first (for the kit's contract, as the create interactions do); "no plant is
 * stored under the key" deletes it through the item's delete operation where the contract has one
 * (a 404 is fine: nothing was there), and can only trust the target where it has none.
 */
export function stateHandlers(baseUrl: string, token: string | undefined, timeoutMs = DEFAULT_VERIFY_TIMEOUT_MS, contract: Contract = loadContract()): StateHandlers {
  return {
    [PLANT_STORED]: async (params?: unknown) => {
      const plant = toNewPlant(parseJson(JSON.stringify(params ?? {})), contract);
      if (!plant.ok) throw new Error(`state "${PLANT_STORED}": the pact's parameters are not a body of the create operation: ${formatIssues(plant.issues)}`);
      const result = await createPlant(baseUrl, token ?? EXAMPLE_TOKEN, plant.plant, { signal: AbortSignal.timeout(timeoutMs), contract });
      if (result.status < 200 || result.status > 299) throw new Error(`state "${PLANT_STORED}": storing the plant was answered ${result.status}: ${stringifyJson(result.body)}`);
      return undefined;
    },
    [PLANT_ABSENT]: async (params?: unknown) => {
      const pattern = consumerPattern(contract);
      const remove = pattern?.operations.get('remove');
      if (pattern?.keyParameter === undefined || remove === undefined) return undefined;
      const key = (params as Record<string, unknown> | undefined)?.[pattern.keyProperty];
      if (typeof key !== 'number' && typeof key !== 'string') throw new Error(`state "${PLANT_ABSENT}": the pact's parameters give no ${pattern.keyProperty}`);
      const request = { path: { [pattern.keyParameter]: BigInt(key) } };
      const result = await callOperation(remove, baseUrl, token ?? EXAMPLE_TOKEN, request, { signal: AbortSignal.timeout(timeoutMs), contract });
      if (result.status !== 404 && (result.status < 200 || result.status > 299)) throw new Error(`state "${PLANT_ABSENT}": deleting the plant was answered ${result.status}: ${stringifyJson(result.body)}`);
      return undefined;
    },
  };
}

export interface InteractionFailure {
  /** How the verifier names the interaction: the pact, the provider state, the description. */
  readonly interaction: string;
  /** One line per mismatch: what differed, where, expected and actual. */
  readonly mismatches: readonly string[];
}

export interface VerificationOutcome {
  readonly passed: boolean;
  /** Interactions verified. */
  readonly interactions: number;
  readonly failures: readonly InteractionFailure[];
  /** Failures of pending pacts: reported, not failing the run. */
  readonly pendingFailures: readonly InteractionFailure[];
  /** Requests the target reset, refused or did not answer in time. */
  readonly transportFailures: readonly ForwardingFailure[];
}

/** The native verifier's JSON report as data; undefined when `text` is not such a report. */
export function readVerifierResult(text: string): Omit<VerificationOutcome, 'transportFailures'> | undefined {
  let report: JsonValue;
  try {
    report = parseJson(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(report) || typeof report.result !== 'boolean') return undefined;
  const failuresOf = (value: JsonValue | undefined): InteractionFailure[] =>
    (Array.isArray(value) ? value : []).filter(isJsonObject).map((error) => ({
      interaction: typeof error.interaction === 'string' ? error.interaction : '(unnamed interaction)',
      mismatches: describeMismatch(error.mismatch),
    }));
  return {
    passed: report.result,
    interactions: Array.isArray(report.interactionResults) ? report.interactionResults.length : 0,
    failures: failuresOf(report.errors),
    pendingFailures: failuresOf(report.pendingErrors),
  };
}

function describeMismatch(mismatch: JsonValue | undefined): string[] {
  if (!isJsonObject(mismatch)) return ['(no detail)'];
  if (mismatch.type === 'error') return [`error: ${text(mismatch.message)}`];
  const all = Array.isArray(mismatch.mismatches) ? mismatch.mismatches.filter(isJsonObject) : [];
  return all.map((m) => {
    const what = text(m.mismatch);
    switch (m.type) {
      case 'StatusMismatch':
        return `status: ${what}`;
      case 'BodyMismatch':
        return `body ${text(m.path)}: ${what}`;
      case 'HeaderMismatch':
        return `header ${text(m.key)}: ${what}`;
      case 'BodyTypeMismatch':
        return `body type: ${what}`;
      default:
        return `${text(m.type)}: ${what}`;
    }
  });
}

function text(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
}

/** The outcome as lines for a person: a summary, then each failing interaction and its mismatches. */
export function formatOutcome(outcome: VerificationOutcome, baseUrl: string): string {
  const lines: string[] = [];
  const failed = outcome.failures.length;
  lines.push(
    failed === 0
      ? `plant-store verify: ${outcome.interactions === 1 ? 'the one interaction holds' : `all ${outcome.interactions} interactions hold`} against ${baseUrl}`
      : `plant-store verify: ${failed} of ${outcome.interactions} interactions failed against ${baseUrl}`,
  );
  for (const failure of outcome.failures) {
    lines.push(`  FAILED ${failure.interaction}`);
    for (const mismatch of failure.mismatches) lines.push(`      ${mismatch}`);
  }
  for (const failure of outcome.pendingFailures) {
    lines.push(`  pending (does not fail the run) ${failure.interaction}`);
    for (const mismatch of failure.mismatches) lines.push(`      ${mismatch}`);
  }
  if (outcome.transportFailures.length > 0) {
    lines.push('  requests the target did not answer (the verifier got a 502 or 504 from plant-store verify instead):');
    for (const failure of outcome.transportFailures) lines.push(`      ${failure.method} ${failure.path}: the target ${failure.reason}`);
  }
  return lines.join('\n') + '\n';
}

export interface RunOptions {
  readonly flags: VerifyFlags;
  readonly token: string | undefined;
  /** Credentials per security scheme of the contract (`--auth`), put in place of the pacts' examples (credentialFilter). */
  readonly credentials?: Readonly<Record<string, string>>;
  /** Header fields added to every replayed request (`--header`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Local pact files (for the 'files' and 'recorded' sources). */
  readonly pactUrls: readonly string[];
  readonly env: Environment;
  /** The contract whose create operation sets up provider states; openapi.yaml of the kit by default. */
  readonly contract?: Contract;
}

/**
 * Runs pact-js's Verifier against the target, through a forwarder that turns transport failures
 * into answers. Resolves with the outcome when the core produced a report (whether or not every
 * interaction held); rejects when it could not run at all.
 */
export async function runVerification({ flags, token, pactUrls, env, contract, credentials = {}, headers = {} }: RunOptions): Promise<VerificationOutcome> {
  const timeoutMs = flags.timeoutMs ?? DEFAULT_VERIFY_TIMEOUT_MS;
  const forwarder = await startForwarder(flags.baseUrl, timeoutMs);
  try {
    const verifier = new Verifier({
      ...verifierOptions(flags, env, pactUrls),
      providerBaseUrl: forwarder.url,
      stateHandlers: stateHandlers(flags.baseUrl, token, timeoutMs, contract),
      requestFilter: credentialFilter(token, placedCredentials(contract ?? loadContract(), credentials), headers),
    });
    let report: string;
    try {
      report = await verifier.verifyProvider();
    } catch (error) {
      // pact-core rejects a failed verification with its JSON report as the message.
      const outcome = readVerifierResult((error as Error).message);
      if (outcome) return { ...outcome, transportFailures: [...forwarder.failures] };
      throw error;
    }
    const outcome = readVerifierResult(report);
    if (!outcome) throw new Error(`the verifier's report could not be read: ${report.slice(0, 200)}`);
    return { ...outcome, transportFailures: [...forwarder.failures] };
  } finally {
    await forwarder.close();
  }
}
