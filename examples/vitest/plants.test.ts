/** A test that talks to the mock its globalSetup started, with the kit's typed client. */
import { createPlant } from 'plant-store-kit';
import { expect, inject, test } from 'vitest';

const url = inject('plantStoreUrl');
const token = inject('plantStoreToken');

test('posting a plant answers a Plant', async () => {
  const result = await createPlant(url, token, { name: 'Monstera', id: 1n, tag: 'tropical' });
  expect(result.status).toBe(200);
  // The status narrows the body: a Plant for 200, an Error for 400 and 401.
  if (result.status === 200) expect(typeof result.body.name).toBe('string');
});

test('posting without credentials answers 401 with an Error', async () => {
  const result = await createPlant(url, undefined, { name: 'Monstera', id: 1n });
  expect(result.status).toBe(401);
  if (result.status === 401) expect(result.body.error).toBe(401);
});
