/**
 * plant-store-kit/msw runs in the browser: bundled for the browser by Vite (Rolldown), the entry
 * point and everything it imports - src/openapi, src/http, src/reference, mock/keep-contract.ts,
 * ajv, lossless-json - reach no Node built-in. The detector is proved on an entry that does.
 */
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUILTINS = new Set(builtinModules);

/** Every Node built-in the entry's module graph imports, as `importer → module`, from a browser build; and the modules bundled. */
async function nodeImports(entry: string): Promise<{ found: string[]; bundled: string[] }> {
  const found: string[] = [];
  const bundled: string[] = [];
  const watch: Plugin = {
    name: 'node-builtins',
    enforce: 'pre',
    resolveId(id, importer) {
      if (id.startsWith('node:') || BUILTINS.has(id.split('/')[0] ?? id)) found.push(`${importer ?? '?'} → ${id}`);
      return null;
    },
    load(id) {
      bundled.push(id);
      return null;
    },
  };
  await build({
    root: ROOT,
    configFile: false,
    logLevel: 'silent',
    plugins: [watch],
    build: {
      write: false,
      minify: false,
      lib: { entry, formats: ['es'], fileName: 'bundle' },
      // The peer dependency: the page brings its own msw (msw/browser).
      rolldownOptions: { external: ['msw'] },
    },
  });
  return { found, bundled };
}

test('the MSW entry point bundles for the browser without any Node built-in', async () => {
  const { found, bundled } = await nodeImports('msw/index.ts');
  expect(found).toEqual([]);
  // The whole graph was walked: the reference, the rules, the contract's compiler, ajv.
  for (const part of ['src/reference/app.ts', 'src/http/rules.ts', 'src/openapi/contract.ts', 'mock/keep-contract.ts', 'node_modules/ajv/']) expect(bundled.some((id) => id.includes(part))).toBe(true);
}, 120_000);

test('the check finds a Node built-in where there is one: loading the contract from a file', async () => {
  const { found } = await nodeImports('src/openapi/load.ts');
  expect(found.some((line) => line.endsWith('→ node:fs'))).toBe(true);
}, 120_000);
