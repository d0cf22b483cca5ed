/**
 * The `plant-store` command line. Exit codes (docs/DESIGN.md): 0 all held, 1 the target broke the
 * contract (or a pact), 2 bad usage or the target could not be reached.
 */
import { Command, CommanderError } from 'commander';
import { loadContract } from '../src/openapi/index.js';
import { conformCommand } from './conform.js';
import { serveCommand, UsageError } from './serve.js';
import { mockCommand } from './mock.js';
import { startCommand } from './start.js';
import { verifyCommand } from './verify.js';

export const EXIT_OK = 0;
export const EXIT_BROKEN = 1;
export const EXIT_USAGE = 2;

export function program(): Command {
  const contract = loadContract();
  const program = new Command('plant-store')
    .description(`Mock server, reference implementation and contract tests for ${contract.title} ${contract.version}`)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  for (const command of [serveCommand(), mockCommand(), startCommand(), conformCommand(), verifyCommand()]) {
    program.addCommand(command.exitOverride().showHelpAfterError('(run with --help for usage)'));
  }
  return program;
}

/** Runs the command line; resolves with the exit code. Commands set process.exitCode for 1. */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    await program().parseAsync([...argv], { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    if (error instanceof UsageError) {
      process.stderr.write(`plant-store: ${error.message}\n`);
      return EXIT_USAGE;
    }
    process.stderr.write(`plant-store: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT_USAGE;
  }
}
