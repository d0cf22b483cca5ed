/**
 * `plant-store serve --contract examples/contracts/garden-journal.yaml` as a user runs it (the
 * built command in a child process): it starts with every operation stateful (none named as
 * answered from examples or generated), and a garden created over the socket is read back at the
 * Location it was answered with, a bed created under it is listed in its envelope.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listening, stopped, type Run } from '../support/cli.js';

const JOURNAL = fileURLToPath(new URL('../../examples/contracts/garden-journal.yaml', import.meta.url));
let serving: Run | undefined;

beforeAll(() => {
  if (!existsSync(new URL('../../dist/cli/main.js', import.meta.url))) throw new Error('dist/ is missing: run `npm run build` (npm test does)');
});
afterAll(() => stopped([serving]));

async function started(): Promise<{ url: string; token: string; banner: string }> {
  const { url, banner, ran } = await listening(['serve', '--port', '0', '--contract', JOURNAL]);
  serving = ran;
  return { url, token: /token: (\S+)/.exec(banner)?.[1] ?? '', banner };
}

describe('serve --contract garden-journal.yaml', () => {
  it('creates with 201 and Location, reads at that Location, lists the nested bed in its envelope', async () => {
    const { url, token, banner } = await started();
    expect(banner).not.toContain("answered from the contract's examples");
    expect(banner).not.toContain('answered with values generated');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${url}/gardens`, { method: 'POST', headers, body: '{"name":"Allotment 12"}' });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    const garden = (await created.json()) as { id: string };
    expect(location).toBe(`/gardens/${garden.id}`);
    // Resolved against the request's URL (RFC 9110, section 10.2.2).
    const read = await fetch(new URL(location, `${url}/gardens`), { headers });
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(garden);
    const bed = await fetch(`${url}${location}/beds`, { method: 'POST', headers, body: '{"label":"North"}' });
    expect(bed.status).toBe(201);
    const list = (await (await fetch(`${url}${location}/beds`, { headers })).json()) as { data: unknown[] };
    expect(list.data).toEqual([{ id: 1, label: 'North' }]);
  });
});
