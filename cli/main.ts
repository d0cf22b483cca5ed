/**
 * The `plant-store` command line: its commands, and the one place where what they end with
 * becomes the process's exit code. A command's run returns an Outcome; whatever is thrown on the
 * way is classified by outcomeOf; settle prints what needs saying and gives the code (outcome.ts:
 * 0 all held, 1 the target broke the contract or a pact, 2 bad usage or the target could not be
 * reached, 70 a defect of the kit).
 */
import { Command, CommanderError } from 'commander';
import { readHeading } from '../src/openapi/index.js';
import { dropOutputWhenReaderLeaves, loadedWhenRun, PROCESS_IO, toCommander, type CommandDefinition, type Io } from './command.js';
import { conform } from './conform.js';
import { mock } from './mock.js';
import { proxy } from './proxy.js';
import { crash, EXIT_CODE_MEANINGS, HELD, outcomeOf, settle, type Outcome } from './outcome.js';
import { serve } from './serve.js';
import { start } from './start.js';
import { verify } from './verify.js';
import { contractIn, openContractsIn } from './options.js';
import { versionReport } from './version.js';

/**
 * Every command, in the order --help lists them. What a command does (cli/run/) is imported when
 * it runs, not when the command line starts: `--version`, `--help` and a bad option load the
 * commands' options and help, never the servers or the conformance engine.
 */
export const COMMANDS: readonly CommandDefinition[] = [
  loadedWhenRun(serve, async () => (await import('./run/serve.js')).runServe),
  loadedWhenRun(mock, async () => (await import('./run/mock.js')).runMock),
  loadedWhenRun(start, async () => (await import('./run/start.js')).runStart),
  loadedWhenRun(conform, async () => (await import('./run/conform.js')).runConform),
  loadedWhenRun(verify, async () => (await import('./run/verify.js')).runVerify),
  loadedWhenRun(proxy, async () => (await import('./run/proxy.js')).runProxy),
];

/**
 * The commander program for the command line `argv`; each command's outcome goes to `onOutcome`.
 * `--version` names the contract `--contract` names anywhere in `argv`: commander's own version
 * option prints a text fixed before the line is read, at the flag, before the options after it.
 */
export function program(io: Io = PROCESS_IO, onOutcome: (outcome: Outcome) => void = () => undefined, argv: readonly string[] = []): Command {
  const root = new Command('plant-store')
    // Its contract's heading is read when the help is shown, not whenever the command line starts.
    .configureHelp({
      commandDescription: () => {
        const { title, version } = readHeading();
        return `Mock server, reference implementation and contract tests for ${title} ${version}`;
      },
    })
    .option('-V, --version', 'print the versions of the kit, its contract (the one --contract names), Prism and Pact')
    .on('option:version', () => {
      const report = versionReport(contractIn(argv, io.err));
      io.out(`${report}\n`);
      // As commander's version option ends: a CommanderError with exit code 0 (outcome.ts: held).
      throw new CommanderError(0, 'commander.version', report);
    })
    .addHelpText('after', `\nExit codes:\n${EXIT_CODE_MEANINGS.map(([code, meaning]) => `  ${String(code).padEnd(3)} ${meaning}`).join('\n')}`);
  for (const command of [root, ...COMMANDS.map((definition) => toCommander(definition, io, onOutcome))]) {
    // Set on each: commander does not pass these on to commands added with addCommand.
    command
      .exitOverride()
      .showHelpAfterError('(run with --help for usage)')
      .configureOutput({ writeOut: io.out, writeErr: io.err });
    if (command !== root) root.addCommand(command);
  }
  return root;
}

/** Runs the command line in this process; resolves with the exit code and never rejects. */
export async function main(argv: readonly string[], io: Io = PROCESS_IO): Promise<number> {
  let outcome: Outcome = HELD;
  try {
    await openContractsIn(argv);
    await program(io, (reached) => (outcome = reached), argv).parseAsync([...argv], { from: 'user' });
  } catch (error) {
    outcome = outcomeOf(error);
  }
  return settle(outcome, io.err);
}

/**
 * What bin/plant-store.js runs. An exception that escapes every command - thrown in an event
 * handler of a running server, say, or a promise rejected with no one waiting - is a crash of the
 * kit too: without this, Node would exit 1, which means "the target broke the contract".
 * Unhandled rejections arrive here as well (Node's default, --unhandled-rejections=throw).
 */
export async function runProcess(argv: readonly string[]): Promise<void> {
  dropOutputWhenReaderLeaves();
  process.on('uncaughtException', (error) => {
    process.exit(settle(crash(error), PROCESS_IO.err));
  });
  process.exitCode = await main(argv);
}
