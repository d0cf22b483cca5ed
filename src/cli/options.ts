/** Option parsers shared by the commands; a bad value is a usage error (exit 2). */
import { InvalidArgumentError } from 'commander';
import { isWellFormedToken } from '../http/index.js';

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

/** Tokens from PLANT_STORE_TOKENS (comma-separated), validated like --token. */
export function tokensFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.PLANT_STORE_TOKENS ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .reduce<string[]>((all, token) => collectToken(token, all), []);
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
