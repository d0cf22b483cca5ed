/**
 * Vitest globalSetup: one Plant Store mock for the whole run, on a free port, closed at the end.
 * Tests read its URL and a token it accepts with `inject` (see plants.test.ts).
 */
import { startMock } from 'plant-store-kit';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    plantStoreUrl: string;
    plantStoreToken: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const mock = await startMock(); // startReference() for the stateful reference implementation
  project.provide('plantStoreUrl', mock.url);
  project.provide('plantStoreToken', mock.token);
  return () => mock.close();
}
