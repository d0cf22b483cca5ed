/**
 * The options of the command line, each defined once: its flags, what it means, the rule its
 * value keeps (the parser) and its default.
 *
 * - An option more than one command takes is defined here, and every such command takes it from
 *   here, so the same bad value is refused with the same message everywhere.
 * - An option of one command alone is defined in that command's file with the same builders; it
 *   moves here when a second command takes it. `start` takes serve's and mock's options whole.
 * - Two options share a flag only where the flag means two things: `--token` is the tokens a
 *   server accepts (serve, start; repeatable) or the one a client sends (conform, verify); `--seed`
 *   is the mock's data seed (text) or conform's run seed (an integer). Both meanings of
 *   `--token` keep the one rule, {@link bearerToken}, and read PLANT_STORE_TOKENS.
 *
 * A command lists the options it takes (command.ts makes them commander options and types their
 * values). A value that breaks its rule is bad usage (exit 2); commander's message names the option.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { acceptAnyToken, authVariable, DEFAULT_JOURNAL_SIZE, isWellFormedToken, MAX_JOURNAL_SIZE, schemePolicies, servedSchemes, splitAuth } from '../src/http/index.js';
import { loadContract, openContract, type Contract } from '../src/openapi/index.js';
import { UsageError } from './outcome.js';

/**
 * One option. `Present` is true when the value is always there (a default, a flag, a required
 * option), false when it may be undefined. The value-typed members are methods so that an option
 * of any value type fits where `CliOption<unknown>` is expected (method parameters are bivariant).
 */
export interface CliOption<T, Present extends boolean = boolean> {
  readonly flags: string;
  readonly description: string;
  readonly present: Present;
  readonly defaultValue?: T;
  readonly choices?: readonly string[];
  readonly required?: boolean;
  /** Reads one occurrence; `previous` is the value so far (repeatable options). Throws InvalidArgumentError. */
  parse?(text: string, previous: T | undefined): T;
  /** Completes the parsed value before the command runs (from the environment, say); may throw UsageError. */
  complete?(value: T | undefined): T | undefined;
}

/** An option taking a value, read by `parse` (as text without one). */
export function option(flags: string, description: string): CliOption<string, false>;
export function option<T>(flags: string, description: string, parse: (text: string, previous: T | undefined) => T): CliOption<T, false>;
export function option<T>(flags: string, description: string, parse?: (text: string, previous: T | undefined) => T): CliOption<T, false> {
  return { flags, description, present: false, ...(parse ? { parse } : {}) };
}

/** An option taking one of a fixed set of words; commander lists them in --help and refuses others. */
export function oneOf<const C extends string>(flags: string, description: string, choices: readonly C[]): CliOption<C, false> {
  return { flags, description, present: false, choices };
}

/** A switch: true when given, false otherwise. */
export function flag(flags: string, description: string): CliOption<boolean, true> {
  return { flags, description, present: true, complete: (value) => value === true };
}

export function withDefault<T>(base: CliOption<T>, value: T): CliOption<T, true> {
  return { ...base, present: true, defaultValue: value };
}

export function required<T>(base: CliOption<T>): CliOption<T, true> {
  return { ...base, present: true, required: true };
}

// ---- The rules values keep ----

export function integer(min: number, max: number): (text: string) => number {
  return (text) => {
    const n = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return n;
  };
}

const TOKEN_RULE = 'a bearer token is letters, digits and - . _ ~ + / (RFC 6750 b64token), optionally ending in =';

/** A bearer token as RFC 6750 section 2.1 writes it (b64token), for a server to accept or a client to send. */
export function bearerToken(text: string): string {
  if (!isWellFormedToken(text)) throw new InvalidArgumentError(TOKEN_RULE);
  return text;
}

/** Tokens from PLANT_STORE_TOKENS (comma-separated), each under the same rule as --token. */
export function tokensFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  const tokens = (env.PLANT_STORE_TOKENS ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  // Not an InvalidArgumentError: read outside commander's parsing, nothing would print it with the variable's name.
  if (tokens.some((token) => !isWellFormedToken(token))) throw new UsageError(`PLANT_STORE_TOKENS: ${TOKEN_RULE}`);
  return tokens;
}

/**
 * Where a client is pointed: an absolute http or https URL, whose path (a prefix) is kept and the
 * contract's paths appended. No credentials (a token goes in --token, never into a URL that is
 * printed), no query or fragment (they would end up in the middle of every request's URL).
 * An empty path is written without its slash: `http://127.0.0.1:3000/` becomes `http://127.0.0.1:3000`.
 */
export function absoluteHttpUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidArgumentError('expected an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError(`expected an absolute http:// or https:// URL, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '') throw new InvalidArgumentError('a base URL cannot carry credentials; use --token');
  // A raw ? or # can only start a query or a fragment, even an empty one that URL would drop.
  if (/[?#]/.test(text)) throw new InvalidArgumentError('a base URL cannot have a query string or a fragment');
  return url.pathname === '/' ? url.origin : url.href;
}

// ---- Options several commands take ----

/**
 * The contract a command works from (serve, mock, start, conform, proxy): the kit's openapi.yaml
 * unless --contract names another. Read when the options are, so that a file that is missing, or
 * a contract with a feature the kit cannot honour, is bad usage naming it (docs/contracts.md).
 */
export const contract: CliOption<Contract, true> = {
  ...option<Contract>('--contract <file>', "the OpenAPI contract (3.1 or 3.2; 3.0 and Swagger 2.0 are upgraded, $refs to files beside it bundled) to use instead of the kit's bundled openapi.yaml", readContract),
  present: true,
  complete: (value) => value ?? loadContract(),
};

/**
 * Reads ahead every file `--contract` names in `argv` (`--contract C`, `--contract=C`), so that
 * what takes a dynamic import - upgrading a Swagger 2.0 or OpenAPI 3.0 document, bundling the
 * files a contract refers to - is done before commander parses the line, whose option parsers are
 * synchronous: readContract then finds the contract, or the error reading it gave, where
 * loadContract keeps them. Errors are not thrown here: they are the option's, reported as it
 * reports them. Nothing is read without --contract: the bundled contract's start-up is unchanged.
 */
export async function openContractsIn(argv: readonly string[]): Promise<void> {
  const files = argv.flatMap((arg, index) => (arg === '--contract' ? [argv[index + 1]] : arg.startsWith('--contract=') ? [arg.slice('--contract='.length)] : []));
  // `serve` compiles the schemas' validators once it listens (cli/run/serve.ts): compiling them
  // is two fifths of a large contract's start-up. A schema ajv cannot compile still ends it (exit 2).
  const schemas = argv[0] === 'serve' ? 'later' : 'now';
  for (const file of files) if (file !== undefined && file !== '') await openContract(file, { schemas }).catch(() => undefined);
}

/** The rule of --contract: a file holding a contract the kit can honour exactly. */
export function readContract(file: string): Contract {
  try {
    return loadContract(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new InvalidArgumentError(`no such file ${file}`);
    throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * The contract `--contract` names in a command line, wherever it stands (`plant-store --version
 * --contract C`, `plant-store serve --contract C --version`, `--contract=C`), read by its rule
 * (options.ts) as every command reads it; undefined where there is none. A missing file or a
 * contract the kit refuses is bad usage: commander writes the message to `writeErr` and throws.
 */
export function contractIn(argv: readonly string[], writeErr: (text: string) => void): Contract | undefined {
  const reader = new Command('plant-store')
    .addOption(new Option('--contract <file>').argParser((file: string) => readContract(file)))
    .allowUnknownOption()
    .allowExcessArguments()
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr });
  reader.parse([...argv], { from: 'user' });
  return reader.opts<{ contract?: Contract }>().contract;
}

/** Where a server listens (serve, mock, start); each gives its own default port. */
export const port = option('--port <port>', 'port to listen on (0 picks a free one)', integer(0, 65_535));
export const host = withDefault(option('--host <host>', 'address to listen on'), '127.0.0.1');
export const quiet = flag('--quiet', 'no request log');

/** The request journal and the admin path (serve, mock, start). */
export const journalSize = withDefault(option('--journal-size <n>', 'requests the journal keeps; the oldest is forgotten beyond it', integer(1, MAX_JOURNAL_SIZE)), DEFAULT_JOURNAL_SIZE);
/** commander reads `--no-admin` as `admin`, true unless the flag is given. */
export const admin = flag('--no-admin', 'no admin path /__plant-store/ (the journal as JSON and its live page): only the contract\'s paths are served');

/** Where the reference keeps its plants (serve, start): `memory`, or a shared Redis (`redis://host:port/db`); also PLANT_STORE_REDIS_URL. */
export const store: CliOption<string, true> = {
  ...option('--store <where>', 'where the plants are kept: memory (default), or a Redis several servers share, redis://host:port/db (also PLANT_STORE_REDIS_URL)', (text) => {
    if (text === 'memory' || /^rediss?:\/\/./.test(text)) return text;
    throw new InvalidArgumentError('expected memory or a redis:// URL (redis://host:port/db)');
  }),
  present: true,
  complete: (value) => {
    if (value !== undefined) return value;
    const fromEnv = process.env.PLANT_STORE_REDIS_URL;
    if (fromEnv === undefined || fromEnv === '') return 'memory';
    if (!/^rediss?:\/\/./.test(fromEnv)) throw new UsageError(`PLANT_STORE_REDIS_URL: ${JSON.stringify(fromEnv)} is not a redis:// URL (redis://host:port/db)`);
    return fromEnv;
  },
};

/** The target of a client (conform, verify). */
export const baseUrl = required(option('--base-url <url>', 'where the target listens, e.g. http://127.0.0.1:3000 (a path prefix is kept)', absoluteHttpUrl));

/** The tokens a server accepts (serve, start), or the upstream behind the proxy: every --token, then those of PLANT_STORE_TOKENS. */
export const acceptedTokens: CliOption<string[], true> = {
  ...option<string[]>('--token <token>', 'accepted bearer token (repeatable; also PLANT_STORE_TOKENS, comma-separated)', (text, previous) => [...(previous ?? []), bearerToken(text)]),
  present: true,
  complete: (tokens) => [...(tokens ?? []), ...tokensFromEnv()],
};

/** Credentials by scheme name, as --auth gathers them. */
export type AuthOption = Record<string, string[]>;

/**
 * The credentials a server accepts per security scheme of the contract (serve, mock, start): every
 * `--auth <scheme>=<value>`; PLANT_STORE_AUTH_<SCHEME> is added with the contract ({@link credentialsFor}).
 */
export const auth: CliOption<AuthOption, true> = {
  ...option<AuthOption>(
    '--auth <scheme=value>',
    "a credential accepted for the contract's security scheme <scheme> (repeatable): a bearer token, user:password (http basic), the key (apiKey), token or token:scope1,scope2 (oauth2, openIdConnect); also PLANT_STORE_AUTH_<SCHEME>. A scheme without one accepts --token",
    (text, previous) => {
      const split = splitAuth(text);
      if (split === undefined) throw new InvalidArgumentError('expected <scheme>=<value>: the name of a security scheme of the contract, = and its credential');
      return { ...previous, [split.scheme]: [...(previous?.[split.scheme] ?? []), split.value] };
    },
  ),
  present: true,
  complete: (value) => value ?? {},
};

/**
 * The credentials of --auth, then PLANT_STORE_AUTH_<SCHEME> (one credential, the scheme's name in
 * capitals, other characters `_`) for each scheme of the contract, checked against it: a scheme it
 * does not declare or a value its type refuses is bad usage naming the scheme.
 */
export function credentialsFor(given: AuthOption, served: Contract, env: NodeJS.ProcessEnv = process.env): AuthOption {
  const all: AuthOption = { ...given };
  for (const name of servedSchemes(served).keys()) {
    const value = env[authVariable(name)];
    if (value !== undefined && value !== '') all[name] = [...(all[name] ?? []), value];
  }
  try {
    schemePolicies(served, acceptAnyToken, all);
  } catch (error) {
    throw new UsageError(`--auth: ${error instanceof Error ? error.message : String(error)}`);
  }
  return all;
}

/** The credential a target accepts per security scheme, one per scheme: what a client sends (conform, verify), what the proxy judges by. */
export const clientAuth: CliOption<AuthOption, true> = {
  ...auth,
  ...option<AuthOption>(
    '--auth <scheme=value>',
    "a credential the target accepts for the contract's security scheme <scheme> (repeatable, one per scheme): a bearer token, user:password (http basic), the key (apiKey), an access token (oauth2, openIdConnect); also PLANT_STORE_AUTH_<SCHEME>",
    (text, previous) => {
      const split = splitAuth(text);
      if (split === undefined) throw new InvalidArgumentError('expected <scheme>=<value>: the name of a security scheme of the contract, = and its credential');
      return { ...previous, [split.scheme]: [split.value] };
    },
  ),
  present: true,
  complete: (value) => value ?? {},
};

/** A client's credentials of --auth and PLANT_STORE_AUTH_<SCHEME>, checked against the contract: one per scheme, --auth first. */
export function clientCredentials(given: AuthOption, served: Contract, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(Object.entries(credentialsFor(given, served, env)).flatMap(([name, values]) => (values[0] === undefined ? [] : [[name, values[0]]])));
}

/** Plain header fields a client adds to every request (conform, verify): `--header 'Name: value'`, for what no security scheme describes. */
export const headers: CliOption<Record<string, string>, true> = {
  ...option<Record<string, string>>('--header <field>', "a header field sent with every request, 'Name: value' (repeatable): credentials no security scheme of the contract describes", (text, previous) => {
    const colon = text.indexOf(':');
    const name = text.slice(0, colon).trim();
    if (colon <= 0 || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) throw new InvalidArgumentError("expected 'Name: value', the name a token (RFC 9110, section 5.1)");
    return { ...previous, [name.toLowerCase()]: text.slice(colon + 1).trim() };
  }),
  present: true,
  complete: (value) => value ?? {},
};

/** The token a client sends (conform, verify); the tokens a server accepts are {@link acceptedTokens}. */
export const token: CliOption<string, false> = {
  ...option('--token <token>', 'a bearer token the target accepts (default: the first of PLANT_STORE_TOKENS)', bearerToken),
  complete: (value) => value ?? tokensFromEnv()[0],
};

/** A JUnit XML report of a run (conform) or of what the proxy saw (proxy). */
export const junit = option('--junit <file>', 'also write the report as JUnit XML');

/** How long a client waits for each answer (conform, verify, proxy); each gives its own default. */
export const timeout = option('--timeout <ms>', 'how long to wait for each answer of the target', integer(1, 600_000));
