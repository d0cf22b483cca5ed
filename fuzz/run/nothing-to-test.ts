/**
 * A run that could send nothing at all: the contract declares no operation (only webhooks, say),
 * or the run has credentials for none of its operations. That is a usage problem (exit 2 in the
 * CLI, with what to give), not a finding and not a defect of the kit.
 */
export class NothingToTestError extends Error {
  override name = 'NothingToTestError';
}
