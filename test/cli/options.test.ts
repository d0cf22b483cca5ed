/**
 * The options of the command line (cli/options.ts): one definition per option, the same rule in
 * every command that takes it. The commands are run in this process through `main`, which parses
 * exactly as the built command does; a refused value never reaches a command's run.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toCommander, type CommandDefinition } from '../../cli/command.js';
import { COMMANDS, main } from '../../cli/main.js';
import { absoluteHttpUrl, bearerToken, option, type CliOption } from '../../cli/options.js';
import { HELD } from '../../cli/outcome.js';

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function run(argv: readonly string[]): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { out: (text) => (stdout += text), err: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

const longFlag = (spec: CliOption<unknown>): string => /--[a-z-]+/.exec(spec.flags)?.[0] ?? spec.flags;

/** Every (command, option) pair, by the option's long flag. */
const taken = COMMANDS.flatMap((command) => Object.values(command.options).map((spec) => ({ command: command.name, flag: longFlag(spec), spec })));

/**
 * Values each option refuses, by its flags, and the words of its rule. Every option with a rule
 * needs a row (the last test of the second block says so), so a new option comes with the values
 * it must refuse.
 */
const REFUSED: Readonly<Record<string, { readonly values: readonly string[]; readonly rule: RegExp }>> = {
  '--port <port>': { values: ['abc', '-1', '65536', '1.5', '', ' 80', '0x50'], rule: /expected a whole number from 0 to 65535/ },
  '--mock-port <port>': { values: ['abc', '65536'], rule: /expected a whole number from 0 to 65535/ },
  '--token <token>': { values: ['a b', 'b@d', '', '=abc', 'tok=en', 'ünïcode'], rule: /RFC 6750 b64token/ },
  '--base-url <url>': {
    values: ['not a url', '127.0.0.1:3000', 'ftp://127.0.0.1/', 'file:///etc/passwd', 'http://user:pass@127.0.0.1/', 'http://127.0.0.1/?a=1', 'http://127.0.0.1/?', 'http://127.0.0.1/#top'],
    rule: /expected an absolute http:\/\/ or https:\/\/ URL|cannot carry credentials; use --token|cannot have a query string or a fragment/,
  },
  '--upstream <url>': {
    values: ['not a url', '127.0.0.1:3000', 'ftp://127.0.0.1/', 'http://user:pass@127.0.0.1/', 'http://127.0.0.1/?a=1', 'http://127.0.0.1/#top'],
    rule: /expected an absolute http:\/\/ or https:\/\/ URL|cannot carry credentials; use --token|cannot have a query string or a fragment/,
  },
  '--timeout <ms>': { values: ['0', 'soon', '600001', '-5'], rule: /expected a whole number from 1 to 600000/ },
  '--max-body-bytes <n>': { values: ['0', 'big'], rule: /expected a whole number from 1 to 1073741824/ },
  '--max-depth <n>': { values: ['0', '10001'], rule: /expected a whole number from 1 to 10000/ },
  '--max-entries <n>': { values: ['0', 'many'], rule: /expected a whole number from 1 to 100000000/ },
  '--delay <ms>': { values: ['-5', 'soon', '600001'], rule: /expected a whole number from 0 to 600000/ },
  '--contract <file>': { values: ['/no/such/contract.yaml'], rule: /no such file \/no\/such\/contract.yaml/ },
  '--journal-size <n>': { values: ['0', '10001', 'many'], rule: /expected a whole number from 1 to 10000/ },
  '--auth <scheme=value>': { values: ['no-equals', '=value'], rule: /expected <scheme>=<value>/ },
  '--header <field>': { values: ['no-colon', ': value', 'a b: c'], rule: /expected 'Name: value'/ },
  '--seed <seed>': { values: [' ', ''], rule: /a seed is a non-empty text/ },
  '--seed <n>': { values: ['-1', 'x', '2147483648'], rule: /expected a whole number from 0 to 2147483647/ },
  '--runs <n>': { values: ['0', '1000001'], rule: /expected a whole number from 1 to 1000000/ },
  '--duration <seconds>': { values: ['0', 'soon', '604801', '1.5'], rule: /expected a whole number from 1 to 604800/ },
  '--capacity <plants>': { values: ['-1', 'many', '1000001'], rule: /expected a whole number from 0 to 1000000/ },
  '--max-response-time <ms>': { values: ['0', 'fast', '600001'], rule: /expected a whole number from 1 to 600000/ },
  '--concurrency <n>': { values: ['0', '257'], rule: /expected a whole number from 1 to 256/ },
  '--profile <profile>': { values: ['prism', ''], rule: /Allowed choices are reference, mock/ },
};

/** Options that read a value without refusing any, with the reason. */
const ACCEPT_ANY: Readonly<Record<string, string>> = {
  '--pact <path>': 'a path or URL; one that does not exist is refused when verify runs (exit 2)',
};

describe('one definition per option', () => {
  // A flag may mean two things in two commands only where the kit says so, with the reason.
  const TWO_MEANINGS: Readonly<Record<string, string>> = {
    '--token': 'the tokens a server accepts (serve, start, and the upstream behind proxy; repeatable) or the one a client sends (conform, verify)',
    '--seed': "the mock's data seed (any text) or conform's run seed (a 31-bit integer)",
    '--auth': 'the credentials a server accepts per scheme (serve, mock, start; several per scheme) or the one a target accepts, which a client sends (conform, verify) and the proxy judges by (one per scheme)',
  };

  const flags = [...new Set(taken.map((t) => t.flag))];
  it.for(flags.filter((flag) => new Set(taken.filter((t) => t.flag === flag).map((t) => t.command)).size > 1))(
    '%s, taken by several commands, is defined once: same description, same rule',
    (flag) => {
      const uses = taken.filter((t) => t.flag === flag);
      // Definitions: the same description and the very same rule (parser) make one.
      const definitions = uses.filter((use, i) => uses.findIndex((other) => other.spec.description === use.spec.description && other.spec.parse === use.spec.parse) === i);
      expect(definitions.length, TWO_MEANINGS[flag] ?? uses.map((use) => use.command).join(', ')).toBe(flag in TWO_MEANINGS ? 2 : 1);
    },
  );

  it("an option's name is the key its value has: a mismatch is refused when the command is built", () => {
    const wrong: CommandDefinition = { name: 'wrong', description: '', options: { url: option('--base-url <url>', 'x') }, run: () => Promise.resolve(HELD) };
    expect(() => toCommander(wrong, { out: () => undefined, err: () => undefined }, () => undefined)).toThrow(/--base-url <url> is listed as url, but its value is called baseUrl/);
  });
});

describe('a value an option refuses is refused by every command that takes it, with the same message (exit 2)', () => {
  const cases = taken.flatMap(({ command, flag, spec }) => (REFUSED[spec.flags]?.values ?? []).map((value) => ({ command, flags: spec.flags, flag, value })));

  it.for(cases)('$command $flags "$value"', async ({ command, flags, flag, value }) => {
    const ran = await run([command, flag, value]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(new RegExp(`^error: option '${flags.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}' argument '${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}' is invalid\\. `));
    expect(ran.stderr).toMatch(REFUSED[flags]?.rule ?? /never/);
    expect(ran.stderr).toContain('(run with --help for usage)');
  });

  const sharedCases = [...new Set(cases.map((c) => JSON.stringify([c.flag, c.value])))]
    .map((key) => JSON.parse(key) as [string, string])
    .filter(([flag, value]) => cases.filter((c) => c.flag === flag && c.value === value).length > 1);
  it.for(sharedCases)('%s "%s" gets one message, whichever command refuses it', async ([flag, value]) => {
    const messages = new Map<string, string[]>();
    for (const { command } of cases.filter((c) => c.flag === flag && c.value === value)) {
      const { stderr } = await run([command, flag, value]);
      // The flags differ where one flag has two meanings (--token <token> is the same; --seed <seed> and --seed <n> are not).
      const message = stderr.replace(/^error: option '[^']*'/, 'error: option');
      messages.set(message, [...(messages.get(message) ?? []), command]);
    }
    expect(messages.size, JSON.stringify([...messages])).toBe(1);
  });

  describe('PLANT_STORE_TOKENS, read by every command that takes --token', () => {
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    it.for(['serve', 'start', 'conform', 'verify', 'proxy'])('%s refuses a malformed one with the same message', async (command) => {
      vi.stubEnv('PLANT_STORE_TOKENS', 'good,b@d');
      const ran = await run(command === 'conform' || command === 'verify' ? [command, '--base-url', 'http://127.0.0.1:1'] : command === 'proxy' ? [command, '--upstream', 'http://127.0.0.1:1', '--port', '0'] : [command, '--port', '0']);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toBe('plant-store: PLANT_STORE_TOKENS: a bearer token is letters, digits and - . _ ~ + / (RFC 6750 b64token), optionally ending in =\n');
    });
  });

  it('every option that reads a value through a rule has values it must refuse listed above', () => {
    const ruled = new Set(taken.filter(({ spec }) => spec.parse !== undefined || spec.choices !== undefined).map(({ spec }) => spec.flags));
    expect([...ruled].filter((flags) => !(flags in REFUSED) && !(flags in ACCEPT_ANY))).toEqual([]);
  });
});

describe('the rules', () => {
  it.for<[string, string]>([
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['http://127.0.0.1:3000/', 'http://127.0.0.1:3000'],
    ['HTTP://LOCALHOST:80', 'http://localhost'],
    ['https://example.test/api', 'https://example.test/api'],
    ['http://[::1]:3000/api/', 'http://[::1]:3000/api/'],
  ])('a base URL %s is taken as %s (a path prefix kept)', ([text, url]) => {
    expect(absoluteHttpUrl(text)).toBe(url);
  });

  it.for(['secret', 'a-b.c_d~e+f/g', 'YWxhZGRpbjpvcGVuc2VzYW1l', 'abc==', '0'])('a bearer token %s is a b64token', (text) => {
    expect(bearerToken(text)).toBe(text);
  });
});

describe('CORS on the reference: off under serve unless --cors, on under start (npm start) unless --no-cors', () => {
  /** The values a command's run would receive, without running it. */
  async function valuesOf(name: string, argv: readonly string[]): Promise<Record<string, unknown>> {
    const definition = COMMANDS.find((command) => command.name === name);
    if (definition === undefined) throw new Error(`no command ${name}`);
    let received: Record<string, unknown> = {};
    const captured: CommandDefinition = {
      ...definition,
      run: (values) => {
        received = values;
        return Promise.resolve(HELD);
      },
    };
    await toCommander(captured, { out: () => undefined, err: () => undefined }, () => undefined).parseAsync([...argv], { from: 'user' });
    return received;
  }

  it.for<[string, string[], boolean]>([
    ['serve', [], false],
    ['serve', ['--cors'], true],
    ['start', [], true],
    ['start', ['--no-cors'], false],
  ])('%s %j: cors %s', async ([name, argv, cors]) => {
    expect((await valuesOf(name, argv)).cors).toBe(cors);
  });
});

describe('--help', () => {
  it.for(COMMANDS.map((command) => command.name))('%s --help lists every option the command takes, and exits 0', async (name) => {
    const ran = await run([name, '--help']);
    expect(ran.code).toBe(0);
    for (const { flags } of Object.values(COMMANDS.find((c) => c.name === name)?.options ?? {})) expect(ran.stdout).toContain(flags);
  });
});
