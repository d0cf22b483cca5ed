/**
 * `--contract` with contracts as people write them, through the built command in real
 * processes: `--version --contract` and the banners of `serve` and `mock` name the version a
 * contract was written in and what the kit does not exercise; a 3.0, a Swagger 2.0 and a split
 * contract are served over a socket; a remote `$ref` is refused (exit 2) with its URL; nothing a
 * library says reaches standard error. The fixtures are test/openapi/fixtures/.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, it } from 'vitest';
import { run, type Run } from '../support/cli.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../openapi/fixtures/${name}`, import.meta.url));

beforeAll(() => {
  if (!existsSync(new URL('../../dist/cli/main.js', import.meta.url))) throw new Error('dist/ is missing: run `npm run build` (npm test does)');
});

/** The banner of a server started by `args`, once it names `until`. */
async function bannerOf(started: Run, until: string, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (!started.stdout().includes(until)) {
    if (started.child.exitCode !== null || Date.now() > deadline) throw new Error(`did not start: ${started.stdout()}${started.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return started.stdout();
}

/** Runs `plant-store <args>` until its banner names `until`, hands `use` its URL and banner and standard error, then stops it. */
async function served(args: readonly string[], until: string, use: (url: string, banner: string, stderr: () => string) => Promise<void> | void): Promise<void> {
  const started = run(args);
  try {
    const banner = await bannerOf(started, until, args[0] === 'serve' ? 20_000 : 30_000);
    await use(/listening on (http:\/\/[^\s,]+)/.exec(banner)?.[1] ?? '', banner, started.stderr);
  } finally {
    started.child.kill('SIGTERM');
    await started.exit;
  }
}

const SPLIT_EXAMPLE = fileURLToPath(new URL('../../examples/contracts/nursery-split/openapi.yaml', import.meta.url));

const JSON_HEADERS = { authorization: 'Bearer secret', 'content-type': 'application/json' };

describe.concurrent('--contract in every version and shape', () => {
  it.for([
    ['swagger-2.yaml', 'Seed Bank 2.0.1', '; Swagger 2.0, read as 3.1)'],
    ['openapi-3.0.yaml', 'Greenhouse Sensors 0.9.0', '; OpenAPI 3.0.3, read as 3.1)'],
    ['openapi-3.2.yaml', 'Compost Log 3.2.0-test', '; OpenAPI 3.2.0)'],
    ['split/openapi.yaml', 'Seed Trays 1.0.0', ')'],
    ['cross-refs.yaml', 'Potting Bench 1.0.0', ')'],
  ] as const)('--version --contract %s names it and the version it was written in', async ([name, heading, written], { expect }) => {
    const ran = run(['--version', '--contract', fixture(name)]);
    expect(await ran.exit).toBe(0);
    expect(ran.stdout()).toMatch(new RegExp(`^contract +${heading.replaceAll('.', '\\.')} \\(${fixture(name).replaceAll('.', '\\.')}${written.replaceAll('.', '\\.').replace(')', '\\)')}$`, 'm'));
    expect(ran.stderr()).toBe('');
  });

  it('serve --contract a 3.0 contract: the banner names 3.0 and the unknown format; bounds and nullable hold over the socket', async ({ expect }) => {
    await served(['serve', '--port', '0', '--token', 'secret', '--contract', fixture('openapi-3.0.yaml')], 'operations:', async (url, banner, stderr) => {
      expect(banner).toContain('; OpenAPI 3.0.3, read as 3.1)');
      expect(banner).toContain('    - the format greenhouse-room-code (accepted as its type: the kit does not check it) at /components/schemas/NewReading/properties/room/format\n');
      const post = (body: string) => fetch(`${url}/readings`, { method: 'POST', headers: JSON_HEADERS, body });
      expect((await post('{"sensor":"a","celsius":-40,"humidity":5}')).status).toBe(400);
      expect((await post('{"sensor":"a","celsius":20,"humidity":100}')).status).toBe(400);
      expect((await post('{"sensor":"a","celsius":20,"humidity":5,"note":null,"room":"anything"}')).status).toBe(201);
      expect(stderr()).toBe('');
    });
  });

  it('serve --contract a Swagger 2.0 contract answers its create from the upgraded example', async ({ expect }) => {
    await served(['serve', '--port', '0', '--token', 'secret', '--contract', fixture('swagger-2.yaml')], 'operations:', async (url, banner, stderr) => {
      expect(banner).toContain('; Swagger 2.0, read as 3.1)');
      const refused = await fetch(`${url}/seeds`, { method: 'POST', headers: JSON_HEADERS, body: '{"species":"x","germination":100}' });
      expect(refused.status).toBe(400);
      const stored = await fetch(`${url}/seeds`, { method: 'POST', headers: JSON_HEADERS, body: '{"species":"x","origin":null}' });
      expect(stored.status).toBe(201);
      expect(stderr()).toBe('');
    });
  });

  it('serve --contract a contract split over files serves what its files declare', async ({ expect }) => {
    await served(['serve', '--port', '0', '--token', 'secret', '--contract', fixture('split/openapi.yaml')], 'operations:', async (url, banner) => {
      expect(banner).toContain('operations: POST /trays, GET /trays/{trayId}');
      const refused = await fetch(`${url}/trays`, { method: 'POST', headers: JSON_HEADERS, body: '{"cells":0}' });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toHaveProperty('message');
      expect((await fetch(`${url}/trays/0`, { headers: JSON_HEADERS })).status).toBe(400);
    });
  });

  it('serve --contract with callbacks and webhooks starts, naming them as not exercised', async ({ expect }) => {
    await served(['serve', '--port', '0', '--token', 'secret', '--contract', fixture('callbacks-webhooks.yaml')], 'operations:', (_url, banner, stderr) => {
      expect(banner).toContain('  not exercised or checked (docs/contracts.md):\n    - webhooks (not exercised: the kit sends no requests of its own) at 2 places: /webhooks/plantWatered, /webhooks/plantWilted\n    - callbacks (not exercised: the kit sends no requests of its own) at /paths/~1subscriptions/post/callbacks/dry\n');
      expect(stderr()).toBe('');
    });
  });

  it.for(['serve', 'mock'])('%s --contract a 3.2 contract names what 3.2 adds and the kit does not serve, and answers the rest', async (command, { expect }) => {
    await served([command, '--port', '0', '--token', 'secret', '--contract', fixture('openapi-3.2.yaml')].filter((arg) => command === 'serve' || !['--token', 'secret'].includes(arg)), 'operations:', async (url, banner, stderr) => {
      expect(banner).toContain('; OpenAPI 3.2.0)');
      expect(banner).toContain('    - the QUERY method (OpenAPI 3.2; not served) at /paths/~1heaps/query\n');
      expect(banner).toContain('    - the method LINK in additionalOperations (OpenAPI 3.2; not served) at /paths/~1heaps/additionalOperations/LINK\n');
      const heaps = await fetch(`${url}/heaps`, { headers: { authorization: 'Bearer secret' } });
      expect(await heaps.json()).toEqual([{ id: 1, name: 'north' }]);
      expect(stderr()).toBe('');
    });
  });

  it('start --contract names what it leaves unchecked once, for both servers', async ({ expect }) => {
    await served(['start', '--port', '0', '--mock-port', '0', '--contract', fixture('callbacks-webhooks.yaml')], 'Ctrl-C stops both.', (_url, banner) => {
      expect(banner.split('- webhooks (not exercised').length).toBe(2);
      expect(banner.split('- callbacks (not exercised').length).toBe(2);
    });
  });

  it('mock --contract a 3.0 contract: the banner names its version, and the mock answers from the upgraded contract', async ({ expect }) => {
    await served(['mock', '--port', '0', '--contract', fixture('openapi-3.0.yaml')], 'operations:', async (url, banner, stderr) => {
      expect(banner).toContain('; OpenAPI 3.0.3, read as 3.1)');
      const refused = await fetch(`${url}/readings`, { method: 'POST', headers: { ...JSON_HEADERS, authorization: 'Bearer any-token' }, body: '{"sensor":"a","celsius":-40,"humidity":5}' });
      expect(refused.status).toBe(400);
      const created = await fetch(`${url}/readings`, { method: 'POST', headers: { ...JSON_HEADERS, authorization: 'Bearer any-token' }, body: '{"sensor":"a","celsius":20,"humidity":5}' });
      expect(created.status).toBe(201);
      expect(stderr()).toBe('');
    });
  });

  it('serve --contract the split example: stateful over its files, a create then a read of the same tray', async ({ expect }) => {
    await served(['serve', '--port', '0', '--token', 'secret', '--contract', SPLIT_EXAMPLE], 'operations:', async (url, banner) => {
      expect(banner).toContain('operations: GET /trays, POST /trays, GET /trays/{id}, DELETE /trays/{id}');
      expect((await fetch(`${url}/trays`, { method: 'POST', headers: JSON_HEADERS, body: '{"id":7,"cells":0}' })).status).toBe(400);
      expect((await fetch(`${url}/trays`, { method: 'POST', headers: JSON_HEADERS, body: '{"id":7,"cells":24,"crop":"basil"}' })).status).toBe(201);
      const read = await fetch(`${url}/trays/7`, { headers: JSON_HEADERS });
      expect(await read.json()).toEqual({ id: 7, cells: 24, crop: 'basil' });
    });
  });

  it('mock --contract the split example starts and answers a read from its files', async ({ expect }) => {
    await served(['mock', '--port', '0', '--contract', SPLIT_EXAMPLE], 'operations:', async (url, banner, stderr) => {
      expect(banner).toContain('Nursery trays (split example) 1.0.0-example');
      const read = await fetch(`${url}/trays/7`, { headers: { authorization: 'Bearer any-token' } });
      expect(read.status).toBe(200);
      expect(await read.json()).toHaveProperty('cells');
      expect(stderr()).toBe('');
    });
  });

  it.for(['serve', 'mock', '--version'])('%s --contract with a remote $ref exits 2 naming its URL, fetching nothing', async (command, { expect }) => {
    const ran = run([command, '--contract', fixture('remote-ref.yaml')]);
    expect(await ran.exit).toBe(2);
    expect(ran.stderr()).toContain('  - the remote $ref http://127.0.0.1:9/schemas/pot.yaml#/Pot (the kit fetches nothing; save it beside the contract and refer to the file) at /paths/~1pots/get/responses/200/content/application~1json/schema\n');
    expect(ran.stderr()).toContain('https://example.invalid/problem.json');
  });
});
