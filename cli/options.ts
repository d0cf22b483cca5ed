/** Option parsers shared by the commands; a bad value is a usage error (exit 2). */
import { InvalidArgumentError } from 'commander';
import { isWellFormedToken } from '../src/http/index.js';

export function integerOption(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return n;
  };
}

export const portOption = integerOption(0, 65_535);

/** Repeatable `--token T`; each must be an RFC 6750 b64token. */
export function collectToken(value: string, previous: string[] = []): string[] {
  if (!isWellFormedToken(value)) throw new InvalidArgumentError('a bearer token is letters, digits and - . _ ~ + / (RFC 6750 b64token), optionally ending in =');
  return [...previous, value];
}

/** An error the user can fix by changing the command or its environment; exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Tokens from PLANT_STORE_TOKENS (comma-separated), validated like --token. */
export function tokensFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  const tokens = (env.PLANT_STORE_TOKENS ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  // Thrown outside commander's own parsing, its InvalidArgumentError would be an exit 2 with no message.
  const malformed = tokens.find((token) => !isWellFormedToken(token));
  if (malformed !== undefined) throw new UsageError(`PLANT_STORE_TOKENS: a token is not an RFC 6750 b64token (letters, digits and - . _ ~ + /, optionally ending in =)`);
  return tokens;
}

/** Resolves when the process is asked to stop (SIGINT or SIGTERM). */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
