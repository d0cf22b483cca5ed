/**
 * The light face of contracts/: what the command line reads at start-up (`plant-store verify
 * --help`, the exit code of a usage mistake) without loading the folder's face.
 */
export { DEFAULT_VERIFY_TIMEOUT_MS, VerifyConfigurationError } from './verifier-options.js';
