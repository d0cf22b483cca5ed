/**
 * The broker wiring, tested without a broker: the options `plant-store verify` gives pact-js's
 * Verifier are built by a pure function of the flags and the environment, then run through
 * pact-core's own option validation and its own mapping onto the native verifier's calls (with a
 * recording stand-in for the native library, the one thing not run here).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setupVerification } from '@pact-foundation/pact-core/src/verifier/argumentMapper/index.js';
import { validateOptions } from '@pact-foundation/pact-core/src/verifier/validateOptions.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFaulty, TEST_TOKEN, type RunningFaulty } from '../support/servers.js';
import { EXAMPLE_TOKEN, PLANT_ABSENT, PLANT_STORED } from '../../contracts/names.js';
import { loadContract } from '../../src/openapi/index.js';
import { bearerFilter, formatOutcome, readVerifierResult, stateHandlers, type FilteredRequest } from '../../contracts/verification.js';
import { pactSource, verifierOptions, VerifyConfigurationError, type Environment, type PlainVerifierOptions } from '../../contracts/verifier-options.js';

const baseUrl = 'http://127.0.0.1:4321';
const broker: Environment = { PACT_BROKER_BASE_URL: 'https://broker.example', PACT_BROKER_TOKEN: 'broker-secret' };
const pactFile = fileURLToPath(new URL('fixtures/broken-pact.json', import.meta.url));

describe('verifierOptions: flags and environment to pact-js Verifier options', () => {
  it('verifies local pact files when no broker is configured', () => {
    expect(pactSource({ baseUrl }, {})).toBe('recorded');
    expect(pactSource({ baseUrl, pact: ['a.json'] }, {})).toBe('files');
    expect(verifierOptions({ baseUrl, pact: ['a.json'] }, {}, ['a.json'])).toEqual({ provider: 'plant-store', providerBaseUrl: baseUrl, logLevel: 'error', pactUrls: ['a.json'] });
  });

  it("verifies the broker's pacts with the recommended selectors, pending pacts and the provider's version", () => {
    const options = verifierOptions({ baseUrl, providerVersion: 'abc123', providerBranch: 'main', publish: true }, broker);
    expect(pactSource({ baseUrl }, broker)).toBe('broker');
    expect(options).toEqual({
      provider: 'plant-store',
      providerBaseUrl: baseUrl,
      logLevel: 'error',
      pactBrokerUrl: 'https://broker.example',
      pactBrokerToken: 'broker-secret',
      consumerVersionSelectors: [{ mainBranch: true }, { matchingBranch: true }, { deployedOrReleased: true }],
      enablePending: true,
      providerVersion: 'abc123',
      providerVersionBranch: 'main',
      publishVerificationResult: true,
    });
  });

  it('publishes only when asked, by flag or by pact-core\'s own variable, and selects no matching branch without one', () => {
    expect(verifierOptions({ baseUrl }, broker)).toMatchObject({ consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }] });
    expect(verifierOptions({ baseUrl }, broker)).not.toHaveProperty('publishVerificationResult');
    expect(verifierOptions({ baseUrl, providerVersion: 'v1' }, { ...broker, PACT_BROKER_PUBLISH_VERIFICATION_RESULTS: 'true' })).toMatchObject({ publishVerificationResult: true, providerVersion: 'v1' });
  });

  it('uses basic auth when the broker has a username and a password instead of a token', () => {
    const options = verifierOptions({ baseUrl }, { PACT_BROKER_BASE_URL: 'https://broker.example', PACT_BROKER_USERNAME: 'ci', PACT_BROKER_PASSWORD: 'pw' });
    expect(options).toMatchObject({ pactBrokerUsername: 'ci', pactBrokerPassword: 'pw' });
    expect(options).not.toHaveProperty('pactBrokerToken');
  });

  it.each<[string, Parameters<typeof verifierOptions>[0], Environment, RegExp]>([
    ['a broker without credentials', { baseUrl }, { PACT_BROKER_BASE_URL: 'https://broker.example' }, /without credentials: set PACT_BROKER_TOKEN/],
    ['publishing without a provider version', { baseUrl, publish: true }, broker, /needs --provider-version/],
    ['publishing without a broker', { baseUrl, publish: true }, {}, /needs a broker/],
    ['local files while a broker is configured', { baseUrl, pact: ['a.json'] }, broker, /pacts come from the broker; unset it/],
  ])('refuses %s', (_, flags, env, message) => {
    expect(() => verifierOptions(flags, env)).toThrow(VerifyConfigurationError);
    expect(() => verifierOptions(flags, env)).toThrow(message);
  });

  it("never holds the Plant Store token: that lives only in the request filter", () => {
    const options = verifierOptions({ baseUrl, pact: [pactFile] }, {}, [pactFile]);
    expect(JSON.stringify(options)).not.toContain(TEST_TOKEN);
  });
});

describe('the options, through pact-core to the native verifier', () => {
  // pact-core falls back to these variables; the runner's own must not leak into what is checked.
  beforeEach(() => {
    for (const name of ['PACT_BROKER_BASE_URL', 'PACT_BROKER_TOKEN', 'PACT_BROKER_USERNAME', 'PACT_BROKER_PASSWORD', 'PACT_BROKER_PUBLISH_VERIFICATION_RESULTS', 'PACT_DESCRIPTION', 'PACT_PROVIDER_STATE', 'PACT_PROVIDER_NO_STATE']) {
      vi.stubEnv(name, '');
    }
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });

  /** The native calls pact-core makes for these options, by function name. */
  function nativeCalls(options: PlainVerifierOptions): Map<string, unknown[]> {
    const calls = new Map<string, unknown[]>();
    const recorder = new Proxy({}, { get: (_, name: string) => (_handle: unknown, ...args: unknown[]) => void calls.set(name, args) });
    setupVerification(recorder as never, 0, validateOptions(options));
    return calls;
  }

  it('sends a local run to the file and the provider, and publishes nothing', () => {
    const calls = nativeCalls(verifierOptions({ baseUrl, pact: [pactFile] }, {}, [pactFile]));
    expect(calls.get('pactffiVerifierAddFileSource')).toEqual([pactFile]);
    expect(calls.get('pactffiVerifierSetProviderInfo')).toEqual(['plant-store', 'http', '127.0.0.1', 4321, '/']);
    expect(calls.has('pactffiVerifierBrokerSourceWithSelectors')).toBe(false);
    expect(calls.has('pactffiVerifierSetPublishOptions')).toBe(false);
  });

  it('sends a broker run to the broker with its token, selectors, pending pacts and branch, and publishes the result', () => {
    const calls = nativeCalls(verifierOptions({ baseUrl, providerVersion: 'abc123', providerBranch: 'feat-x', publish: true }, broker));
    expect(calls.get('pactffiVerifierBrokerSourceWithSelectors')).toEqual([
      'https://broker.example',
      '',
      '',
      'broker-secret',
      true,
      '',
      [],
      'feat-x',
      ['{"mainBranch":true}', '{"matchingBranch":true}', '{"deployedOrReleased":true}'],
      [],
    ]);
    expect(calls.get('pactffiVerifierSetPublishOptions')).toEqual(['abc123', '', [], 'feat-x']);
  });

  it('sends a broker run without a provider version or branch, publishing nothing', () => {
    const calls = nativeCalls(verifierOptions({ baseUrl }, broker));
    expect(calls.get('pactffiVerifierBrokerSourceWithSelectors')).toEqual(['https://broker.example', '', '', 'broker-secret', true, '', [], '', ['{"mainBranch":true}', '{"deployedOrReleased":true}'], []]);
    expect(calls.has('pactffiVerifierSetPublishOptions')).toBe(false);
  });
});

describe('the request filter', () => {
  const filtered = (token: string | undefined, headers: FilteredRequest['headers']): FilteredRequest['headers'] => {
    const request = { headers: { ...headers } };
    const next = vi.fn();
    bearerFilter(token)(request, {}, next);
    expect(next).toHaveBeenCalledOnce();
    return request.headers;
  };

  it("puts the provider's token in place of the pact's example", () => {
    expect(filtered('real-token', { authorization: `Bearer ${EXAMPLE_TOKEN}` })).toEqual({ authorization: 'Bearer real-token' });
  });

  it('leaves a request without credentials without them, and the example alone without a token', () => {
    expect(filtered('real-token', { 'content-type': 'application/json' })).toEqual({ 'content-type': 'application/json' });
    expect(filtered(undefined, { authorization: `Bearer ${EXAMPLE_TOKEN}` })).toEqual({ authorization: `Bearer ${EXAMPLE_TOKEN}` });
  });
});

describe('the provider state "a plant is stored"', () => {
  let target: RunningFaulty;
  beforeAll(async () => {
    target = await startFaulty((_request, correct) => correct());
  });
  afterAll(async () => {
    await target.close();
  });

  const setup = (token: string | undefined, params: unknown): Promise<unknown> => {
    const handler = stateHandlers(target.url, token)[PLANT_STORED];
    if (typeof handler !== 'function') throw new Error('expected a plain state function');
    return handler(params as never);
  };

  it('stores the plant of its parameters through the target\'s own create operation', async () => {
    await setup(TEST_TOKEN, { name: 'Ficus', id: 3, tag: 'indoor' });
    expect(target.app.store.size).toBe(1);
  });

  it('fails, saying why, when the target refuses it or the parameters are no NewPlant', async () => {
    await expect(setup('wrong-token', { name: 'Ficus', id: 3 })).rejects.toThrow(/storing the plant was answered 401: .*authorization: bearer token not accepted/);
    await expect(setup(TEST_TOKEN, { name: 'Ficus' })).rejects.toThrow(/not a body of the create operation: id: is required/);
  });
});

describe('the provider state "no plant is stored under the key"', () => {
  const contract = loadContract(fileURLToPath(new URL('../../examples/contracts/plant-store-full.yaml', import.meta.url)));
  let target: RunningFaulty;
  beforeAll(async () => {
    target = await startFaulty((_request, correct) => correct(), { contract });
  });
  afterAll(async () => {
    await target.close();
  });
  const handler = (name: string, token: string): ((params: unknown) => Promise<unknown>) => {
    const found = stateHandlers(target.url, token, undefined, contract)[name];
    if (typeof found !== 'function') throw new Error('expected a plain state function');
    return (params) => found(params as never);
  };

  it("deletes the plant through the contract's delete operation, and is content when there was none", async () => {
    await handler(PLANT_STORED, TEST_TOKEN)({ name: 'Ficus', id: 4 });
    expect(target.app.store.size).toBe(1);
    await handler(PLANT_ABSENT, TEST_TOKEN)({ id: 4 });
    expect(target.app.store.size).toBe(0);
    await handler(PLANT_ABSENT, TEST_TOKEN)({ id: 4 });
  });

  it('fails, saying why, when the target refuses the delete', async () => {
    await expect(handler(PLANT_ABSENT, 'wrong-token')({ id: 4 })).rejects.toThrow(/deleting the plant was answered 401/);
  });
});

describe('npm run pact:publish', () => {
  it('uses flags the installed pact-broker CLI has', () => {
    const scripts = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const script = scripts['pact:publish'] ?? '';
    expect(script).toMatch(/^pact-broker publish contracts\/pacts /);
    const help = execFileSync(fileURLToPath(new URL('../../node_modules/.bin/pact-broker', import.meta.url)), ['publish', '--help'], { encoding: 'utf8', env: { ...process.env, PACT_DO_NOT_TRACK: 'true' } });
    for (const flag of script.match(/--[a-z-]+/g) ?? []) expect(help).toContain(flag);
    // It reads the broker from the same variables as `plant-store verify`.
    expect(help).toContain('[env: PACT_BROKER_BASE_URL=');
    expect(help).toContain('[env: PACT_BROKER_TOKEN=');
  });
});

describe("the native verifier's report", () => {
  // The shape pact-core 19 resolves (or rejects) with: see pactffi_verifier_json.
  const report = JSON.stringify({
    result: false,
    interactionResults: [{ description: 'a', result: 'Error' }, { description: 'b', result: 'Error' }, { description: 'c', result: 'OK' }],
    errors: [
      {
        interaction: 'Verifying a pact between x and plant-store - a',
        mismatch: {
          type: 'mismatches',
          mismatches: [
            { type: 'StatusMismatch', expected: 200, actual: 500, mismatch: 'expected 200 but was 500' },
            { type: 'HeaderMismatch', key: 'Content-Type', expected: 'application/json', actual: 'text/html', mismatch: "Expected 'text/html' to match" },
          ],
        },
      },
      { interaction: 'Verifying a pact between x and plant-store - b', mismatch: { type: 'error', message: 'State change request failed' } },
    ],
    pendingErrors: [{ interaction: 'Verifying a pact between y and plant-store - d', mismatch: { type: 'mismatches', mismatches: [{ type: 'BodyMismatch', path: '$.tag', mismatch: 'Expected tag' }] } }],
    notices: [],
    output: [],
  });

  it('becomes data: each failure with its mismatches, pending failures apart', () => {
    expect(readVerifierResult(report)).toEqual({
      passed: false,
      interactions: 3,
      failures: [
        { interaction: 'Verifying a pact between x and plant-store - a', mismatches: ['status: expected 200 but was 500', "header Content-Type: Expected 'text/html' to match"] },
        { interaction: 'Verifying a pact between x and plant-store - b', mismatches: ['error: State change request failed'] },
      ],
      pendingFailures: [{ interaction: 'Verifying a pact between y and plant-store - d', mismatches: ['body $.tag: Expected tag'] }],
    });
    expect(readVerifierResult('Verification was unable to run')).toBeUndefined();
  });

  it('reads as a summary a person can act on', () => {
    const outcome = readVerifierResult(report);
    if (!outcome) throw new Error('unreadable report');
    expect(formatOutcome({ ...outcome, transportFailures: [{ method: 'POST', path: '/plants', reason: 'failed to answer (ECONNRESET)' }] }, 'http://127.0.0.1:1')).toBe(
      [
        'plant-store verify: 2 of 3 interactions failed against http://127.0.0.1:1',
        '  FAILED Verifying a pact between x and plant-store - a',
        '      status: expected 200 but was 500',
        "      header Content-Type: Expected 'text/html' to match",
        '  FAILED Verifying a pact between x and plant-store - b',
        '      error: State change request failed',
        '  pending (does not fail the run) Verifying a pact between y and plant-store - d',
        '      body $.tag: Expected tag',
        '  requests the target did not answer (the verifier got a 502 or 504 from plant-store verify instead):',
        '      POST /plants: the target failed to answer (ECONNRESET)',
        '',
      ].join('\n'),
    );
  });
});
