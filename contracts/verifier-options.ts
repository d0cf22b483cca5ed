/**
 * The options `plant-store verify` gives pact-js's Verifier, as a pure function of the flags and
 * the environment, so the broker wiring can be tested without a broker (test/contracts/verifier-options.test.ts).
 * It imports pact-js for its types only: a usage mistake is reported before pact is loaded.
 */
import type { VerifierOptions } from '@pact-foundation/pact';
import { PROVIDER } from './names.js';

/** A mistake in the flags or the environment: the command cannot run as asked (exit 2). */
export class VerifyConfigurationError extends Error {
  override name = 'VerifyConfigurationError';
}

export interface VerifyFlags {
  /** The implementation to verify. */
  readonly baseUrl: string;
  /** Pact files or directories of them; none means the kit's own consumer contract. */
  readonly pact?: readonly string[];
  readonly providerVersion?: string;
  readonly providerBranch?: string;
  /** Publish the verification results to the broker. */
  readonly publish?: boolean;
  /** How long to wait for each answer of the target; DEFAULT_VERIFY_TIMEOUT_MS when absent. */
  readonly timeoutMs?: number;
}

export const DEFAULT_VERIFY_TIMEOUT_MS = 10_000;

export type Environment = Readonly<Record<string, string | undefined>>;

/** Where the pacts come from, by the flags and the environment alone. */
export type PactSource = 'broker' | 'files' | 'recorded';

export function pactSource(flags: VerifyFlags, env: Environment): PactSource {
  if (nonEmpty(env.PACT_BROKER_BASE_URL) !== undefined) {
    // pact-core reads PACT_BROKER_BASE_URL itself, so local files would be verified *and* the
    // broker's pacts; asking for one thing and getting two is worse than being told.
    if (flags.pact?.length) throw new VerifyConfigurationError('PACT_BROKER_BASE_URL is set, so pacts come from the broker; unset it to verify the files given with --pact');
    return 'broker';
  }
  return flags.pact?.length ? 'files' : 'recorded';
}

/**
 * The consumer versions to verify, as Pact recommends for a provider's CI
 * (https://docs.pact.io/pact_broker/advanced_topics/consumer_version_selectors): the consumers'
 * main branches, whatever is deployed or released, and, when the provider names its branch, the
 * consumers' branch of the same name (for a feature developed on both sides).
 */
export function consumerVersionSelectors(providerBranch: string | undefined): NonNullable<VerifierOptions['consumerVersionSelectors']> {
  return [{ mainBranch: true }, ...(providerBranch === undefined ? [] : [{ matchingBranch: true }]), { deployedOrReleased: true }];
}

/** The Verifier options that are data (no functions), from the flags, the environment and the local pact files. */
export type PlainVerifierOptions = Omit<VerifierOptions, 'stateHandlers' | 'requestFilter' | 'beforeEach' | 'afterEach' | 'messageProviders'> & {
  readonly providerBaseUrl: string;
};

/**
 * Pure: the options for pact-js's Verifier. With PACT_BROKER_BASE_URL set, pacts come from the
 * broker (PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD), with the
 * recommended consumer version selectors and pending pacts; results are published with
 * `publish` or PACT_BROKER_PUBLISH_VERIFICATION_RESULTS=true (pact-core's own variable), which
 * need a provider version. Without a broker, `pactUrls` (files, directories or URLs) are verified.
 */
export function verifierOptions(flags: VerifyFlags, env: Environment, pactUrls: readonly string[] = []): PlainVerifierOptions {
  const base: PlainVerifierOptions = { provider: PROVIDER, providerBaseUrl: flags.baseUrl, logLevel: 'error' };
  const providerVersion = nonEmpty(flags.providerVersion);
  const providerBranch = nonEmpty(flags.providerBranch);
  const publish = flags.publish === true || env.PACT_BROKER_PUBLISH_VERIFICATION_RESULTS === 'true';
  if (pactSource(flags, env) !== 'broker') {
    if (publish) throw new VerifyConfigurationError('publishing verification results needs a broker: set PACT_BROKER_BASE_URL and PACT_BROKER_TOKEN');
    return { ...base, pactUrls: [...pactUrls] };
  }
  const brokerUrl = nonEmpty(env.PACT_BROKER_BASE_URL) as string;
  const token = nonEmpty(env.PACT_BROKER_TOKEN);
  const username = nonEmpty(env.PACT_BROKER_USERNAME);
  const password = nonEmpty(env.PACT_BROKER_PASSWORD);
  let auth: Pick<VerifierOptions, 'pactBrokerToken' | 'pactBrokerUsername' | 'pactBrokerPassword'>;
  if (token !== undefined) auth = { pactBrokerToken: token };
  else if (username !== undefined && password !== undefined) auth = { pactBrokerUsername: username, pactBrokerPassword: password };
  else throw new VerifyConfigurationError('PACT_BROKER_BASE_URL is set without credentials: set PACT_BROKER_TOKEN (or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD)');
  if (publish && providerVersion === undefined) {
    throw new VerifyConfigurationError('publishing verification results needs --provider-version (the commit of the provider being verified)');
  }
  return {
    ...base,
    pactBrokerUrl: brokerUrl,
    ...auth,
    consumerVersionSelectors: consumerVersionSelectors(providerBranch),
    // A pact the provider has never verified does not fail its build (https://docs.pact.io/pact_broker/advanced_topics/pending_pacts).
    enablePending: true,
    ...(providerVersion === undefined ? {} : { providerVersion }),
    ...(providerBranch === undefined ? {} : { providerVersionBranch: providerBranch }),
    // Present only when true: pact-core requires a providerVersion whenever the key is there at all.
    ...(publish ? { publishVerificationResult: true } : {}),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
