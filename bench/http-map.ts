/**
 * `npm run docs:map`: writes docs/http-map.md, the conformance map rendered from the rows of
 * oracle/requirements/ (test/requirements/map.test.ts fails while the page differs from them).
 */
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REQUIREMENTS, renderHttpMap } from '../oracle/index.js';

// dist/bench/http-map.js, two folders below the repository.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const page = resolve(root, 'docs/http-map.md');
writeFileSync(page, renderHttpMap(REQUIREMENTS));
process.stdout.write(`wrote ${page}\n`);
