/**
 * `plant-store verify`: Pact provider verification of any Plant Store implementation against the
 * consumer contracts - the kit's own (recorded for the run), pact files given with --pact, or a
 * Pact Broker's (PACT_BROKER_BASE_URL). What it does is cli/run/verify.ts.
 */
import { DEFAULT_VERIFY_TIMEOUT_MS } from '../contracts/defaults.js';
import type { Contract } from '../src/openapi/index.js';
import { specifyCommand, type OptionValues } from './command.js';
import { baseUrl, clientAuth, contract, flag, headers, option, readContract, timeout, token, withDefault, type CliOption } from './options.js';

/** verify's --contract: the option every command takes, without its default - without it, no lint runs and the kit's openapi.yaml gives the consumer contract. */
const lintContract: CliOption<Contract, false> = { flags: contract.flags, description: contract.description, present: false, parse: readContract };

const VERIFY_OPTIONS = {
  baseUrl,
  contract: lintContract,
  token,
  auth: clientAuth,
  header: headers,
  pact: option<string[]>('--pact <path>', "a pact file or a directory of them (repeatable); default: the kit's consumer contract, recorded for this run", (text, previous) => [...(previous ?? []), text]),
  providerVersion: option('--provider-version <version>', 'with a broker: the version being verified (the commit); needed to publish results'),
  providerBranch: option('--provider-branch <branch>', "with a broker: the provider's branch (adds the matchingBranch selector)"),
  publish: flag('--publish', 'with a broker: publish the verification results (also PACT_BROKER_PUBLISH_VERIFICATION_RESULTS=true)'),
  timeout: withDefault(timeout, DEFAULT_VERIFY_TIMEOUT_MS),
};

export type VerifyOptions = OptionValues<typeof VERIFY_OPTIONS>;

export const verify = specifyCommand({
  name: 'verify',
  description: 'verify an implementation against the Pact consumer contracts (pact-js provider verification)',
  options: VERIFY_OPTIONS,
  help: `
Pacts come from, in this order:
  PACT_BROKER_BASE_URL set  the broker's pacts for provider "plant-store" (PACT_BROKER_TOKEN, or
                            PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD), selectors mainBranch,
                            matchingBranch (with --provider-branch) and deployedOrReleased; pending pacts on
  --pact <path>             those files
  otherwise                 the kit's consumer contract (contracts/consumer-contract.ts) of --contract
                            (the bundled openapi.yaml without it), recorded into a temporary directory
                            with Pact's mock server for this run
With --contract, every pact file is linted against that contract first, and provider states are set
up through its create operation.
The token goes into every request that carries credentials, never into a pact. Without --token or
PLANT_STORE_TOKENS, requests carry the pact's example token (enough for a mock that accepts any).
Exit codes: 0 every interaction holds, 1 one does not (each failure is named with its mismatches),
2 bad usage, an unreachable target, or a verification that could not run, 70 a defect of the kit.`,
});
