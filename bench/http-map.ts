/**
 * `npm run docs:map`: writes docs/http-map.md and its page per RFC, the conformance map rendered
 * from the rows of oracle/requirements/ (test/requirements/map.test.ts fails while a page differs
 * from them), and removes the page of an RFC that has no row any more.
 */
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REQUIREMENTS, renderHttpMap } from '../oracle/index.js';

// dist/bench/http-map.js, two folders below the repository.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const pages = renderHttpMap(REQUIREMENTS);
for (const name of readdirSync(resolve(root, 'docs'))) if (/^http-map.*\.md$/.test(name) && !pages.has(`docs/${name}`)) rmSync(resolve(root, 'docs', name));
for (const [path, page] of pages) {
  writeFileSync(resolve(root, path), page);
  process.stdout.write(`wrote ${path}\n`);
}
