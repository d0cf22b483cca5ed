/**
 * How a command ends, as data, and the one place that turns it into the process's exit code.
 * fast-check's split: `check()` returns the outcome, `assert()` is the thin layer that decides
 * what it means. Here a command's `run` returns an {@link Outcome}; anything thrown on the way
 * (commander's parse errors, the kit's usage errors, a target out of reach, a defect) is
 * classified by {@link outcomeOf}; {@link settle} prints what the user needs and returns the code.
 */
import { inspect } from 'node:util';
import { CommanderError, InvalidArgumentError } from 'commander';
// Each from its own small module, not from its room's API: the command line loads them at start-up,
// so recognising an error must not load the engine (fuzz/index.ts) or Pact.
import { VerifyConfigurationError } from '../contracts/defaults.js';
import { NothingToTestError, TargetUnreachableError } from '../fuzz/defaults.js';
import { kitVersion } from './version.js';

/**
 * The exit codes of `plant-store`; other tools and CI scripts branch on them, so they never
 * change meaning. 70 is EX_SOFTWARE of sysexits.h ("internal software error"): far from the
 * small codes, so that a defect of the kit is never read as a verdict on the target.
 */
export const EXIT_CODES = {
  /** Every check, interaction or server run held (a server stopped by SIGINT or SIGTERM included). */
  held: 0,
  /** The target broke the contract (conform) or a pact (verify). */
  broken: 1,
  /** The command cannot run as given: a bad option, environment variable, file or port. */
  usage: 2,
  /** The target (or a Pact Broker) could not be reached, so nothing was judged. */
  unreachable: 2,
  /** An exception nobody expected: a defect of the kit, to be reported. */
  crash: 70,
} as const;

/** What each exit code means, for `--help` and the docs. */
export const EXIT_CODE_MEANINGS: readonly (readonly [code: number, meaning: string])[] = [
  [EXIT_CODES.held, 'all held'],
  [EXIT_CODES.broken, 'the target broke the contract (or a pact)'],
  [EXIT_CODES.usage, 'bad usage, or the target could not be reached'],
  [EXIT_CODES.crash, 'a defect of the kit itself (the message asks for a report)'],
];

/** An error the user can fix by changing the command or its environment (exit 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

export type Outcome =
  | { readonly kind: 'held' }
  | { readonly kind: 'broken' }
  /** `message` is absent when it has been printed already (commander prints its own). */
  | { readonly kind: 'usage'; readonly message?: string }
  | { readonly kind: 'unreachable'; readonly message: string }
  | { readonly kind: 'crash'; readonly error: unknown };

export const HELD: Outcome = { kind: 'held' };
export const BROKEN: Outcome = { kind: 'broken' };
export const usage = (message: string): Outcome => ({ kind: 'usage', message });
export const unreachable = (message: string): Outcome => ({ kind: 'unreachable', message });
export const crash = (error: unknown): Outcome => ({ kind: 'crash', error });

/** What a thrown value means. Only the errors named here are expected; anything else is a crash of the kit. */
export function outcomeOf(error: unknown): Outcome {
  if (error instanceof UsageError || error instanceof VerifyConfigurationError || error instanceof NothingToTestError) return usage(error.message);
  if (error instanceof TargetUnreachableError) return unreachable(error.message);
  // Thrown by a parser outside commander's parsing, it was not printed; inside, commander printed
  // it and threw a plain CommanderError (exit code 0 for --help, 1 for the rest).
  if (error instanceof InvalidArgumentError) return usage(error.message);
  if (error instanceof CommanderError) return error.exitCode === 0 ? HELD : { kind: 'usage' };
  return crash(error);
}

export function exitCode(outcome: Outcome): number {
  return EXIT_CODES[outcome.kind];
}

/** What standard error should say about an outcome; '' for nothing. */
export function explain(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'held':
    case 'broken':
      return '';
    case 'usage':
      return outcome.message === undefined ? '' : `plant-store: ${outcome.message}\n`;
    case 'unreachable':
      return `plant-store: ${outcome.message}; is it running?\n`;
    case 'crash':
      // Not the command line itself: it may carry a token (--token), and reports get pasted in public.
      return (
        `plant-store: internal error. This is a defect of Plant Store Kit, not a problem with your command or the target.\n` +
        `Please report it, with the command you ran and everything below.\n` +
        `${about()}\n` +
        `${inspect(outcome.error, { depth: 4 })}\n`
      );
  }
}

/** Prints what the outcome needs said and returns the exit code: the thin layer of the command line. */
export function settle(outcome: Outcome, writeErr: (text: string) => void): number {
  const text = explain(outcome);
  if (text !== '') writeErr(text);
  return exitCode(outcome);
}

/** The versions a defect report needs; never throws (it runs while the kit is failing). */
function about(): string {
  let kit: string;
  try {
    kit = kitVersion();
  } catch {
    kit = 'unknown version';
  }
  return `plant-store-kit ${kit}, Node.js ${process.version}, ${process.platform} ${process.arch}`;
}
