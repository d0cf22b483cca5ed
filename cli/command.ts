/**
 * What a command is: a name, a description, the options it takes (options.ts), help text, and a
 * `run` that returns its outcome (outcome.ts) instead of touching the process. main.ts gives each
 * command its run, imported when it runs, makes commander commands of them and settles the
 * outcome in one place.
 */
import { Command, Option } from 'commander';
import type { CliOption } from './options.js';
import type { Outcome } from './outcome.js';

/** Where a command writes: standard output and standard error in the process, buffers in tests. */
export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** The process's streams whose reader has gone (EPIPE): nothing more is written to them. */
const readerGone = new WeakSet<NodeJS.WriteStream>();

function writeTo(stream: NodeJS.WriteStream): (text: string) => void {
  return (text) => {
    if (!readerGone.has(stream)) stream.write(text);
  };
}

export const PROCESS_IO: Io = { out: writeTo(process.stdout), err: writeTo(process.stderr) };

/**
 * A reader that closes its end of the pipe early (`plant-store serve --help | head -2`) has read
 * all it wanted: that is not a defect of the kit. Without a listener, the EPIPE of the next write
 * is an 'error' nobody handles, hence an uncaught exception, hence exit 70 and a stack trace.
 * Here the rest of that stream's output is dropped and the command goes on to its own outcome,
 * whose code is the exit code as always. Not 0 whatever happened: `set -o pipefail; plant-store
 * conform ... | head` must still fail when the target broke the contract. Not 141 (128 + SIGPIPE,
 * what a C program killed by the signal reports; Node ignores SIGPIPE): it says nothing about the
 * target, and the codes CI branches on are 0, 1, 2 and 70 (outcome.ts). A server whose log reader
 * left keeps serving until SIGINT or SIGTERM, as it would with its log anywhere else.
 * Any other error of these streams is still a crash of the kit, rethrown as it arrived.
 */
export function dropOutputWhenReaderLeaves(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      readerGone.add(stream);
    });
  }
}

/** Options by the name commander gives their value (`--base-url` is `baseUrl`). */
export type Options = Readonly<Record<string, CliOption<unknown>>>;

type ValueOf<O> = O extends CliOption<infer T, infer Present> ? (Present extends true ? T : T | undefined) : never;

/** The values a command's run receives, typed from the options it lists. */
export type OptionValues<O extends Options> = { readonly [K in keyof O]: ValueOf<O[K]> };

/** What the command line knows of a command before it runs: enough for parsing and --help. */
export interface CommandSpec<O extends Options = Options> {
  readonly name: string;
  readonly description: string;
  readonly options: O;
  /** Shown after the options by --help. */
  readonly help?: string;
}

export interface CommandDefinition<O extends Options = Options> extends CommandSpec<O> {
  run(values: OptionValues<O>, io: Io): Promise<Outcome>;
}

type Run<O extends Options> = CommandDefinition<O>['run'];

/** Identity, for the types: the values its run receives are typed from `options`. */
export function specifyCommand<O extends Options>(spec: CommandSpec<O>): CommandSpec<O> {
  return spec;
}

/**
 * The command of `spec` whose run is imported by `load` when the command runs, not when the
 * command line starts: `--version`, `--help` and every other command never load it. A module
 * that fails to load rejects the run with Node's error: a crash of the kit (exit 70), as any
 * exception nobody expected (outcome.ts).
 */
export function loadedWhenRun<O extends Options>(spec: CommandSpec<O>, load: () => Promise<Run<O>>): CommandDefinition<O> {
  return { ...spec, run: async (values, io) => (await load())(values, io) };
}

/** The commander command of a definition; its outcome goes to `onOutcome`. */
export function toCommander<O extends Options>(definition: CommandDefinition<O>, io: Io, onOutcome: (outcome: Outcome) => void): Command {
  const command = new Command(definition.name).description(definition.description);
  for (const [name, spec] of Object.entries(definition.options)) {
    const option = new Option(spec.flags, spec.description);
    // The name is the key of the value `run` receives: a mismatch is the kit's mistake, caught by any --help.
    if (option.attributeName() !== name) throw new Error(`${definition.name}: option ${spec.flags} is listed as ${name}, but its value is called ${option.attributeName()}`);
    if (spec.parse) option.argParser((text: string, previous: unknown) => spec.parse?.(text, previous));
    if (spec.choices) option.choices(spec.choices);
    if (spec.defaultValue !== undefined) option.default(spec.defaultValue);
    if (spec.required === true) option.makeOptionMandatory();
    command.addOption(option);
  }
  if (definition.help !== undefined) command.addHelpText('after', definition.help);
  return command.action(async (parsed: Record<string, unknown>) => {
    const values = Object.fromEntries(Object.entries(definition.options).map(([name, spec]) => [name, spec.complete ? spec.complete(parsed[name]) : parsed[name]]));
    onOutcome(await definition.run(values as OptionValues<O>, io));
  });
}
