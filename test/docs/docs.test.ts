/**
 * The documentation against the code, after Fastify's test of its error catalogue against
 * docs/Reference/Errors.md: every check of the conformance engine, every option of every command
 * and every exit code is on its page, and nothing is on a page that the code does not have; every
 * relative link of the pages leads somewhere, and every path they name exists; the README,
 * conform's page and the design stay a first visit's length. The names come from the code's
 * public exports, so a new check, option, command or exit code fails here until its page says it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import * as cli from '../../cli/main.js';
import { EXIT_CODE_MEANINGS } from '../../cli/outcome.js';
import { CHECK_NAMES, KIND_NAMES } from '../../fuzz/index.js';
import { brokenLinks, codePaths, documentedExitCodes, documentedNames, documentedOptions, headingAnchors, missing, missingPaths, relativeLinks, slug } from './markdown.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/** The page of each command; a command without one fails the test. */
const PAGES: Readonly<Record<string, string>> = {
  serve: 'docs/reference-server.md',
  mock: 'docs/mock.md',
  start: 'docs/mock.md',
  conform: 'docs/conform.md',
  verify: 'docs/pact.md',
  proxy: 'docs/proxy.md',
};

const commands: readonly Command[] = cli.program().commands;

/** The long flags of a command's options, as `--name`. */
function flagsOf(command: Command): string[] {
  return command.options.flatMap((option) => (option.long === undefined ? [] : [option.long]));
}

/** The exit codes of the command line, from the one place that maps outcomes to them. */
const EXIT_CODES: readonly number[] = EXIT_CODE_MEANINGS.map(([code]) => code);

const pages = [...new Set(Object.values(PAGES))];

/** The most a page may weigh, in bytes. */
const MAX_PAGE_BYTES = 30_000;
/** Folders that hold no page of the kit: dependencies, builds, generated files. */
const NOT_PAGES = new Set(['node_modules', 'dist', 'results', 'pacts']);

/** Every Markdown file under `dir` (relative to the root), hidden folders and NOT_PAGES left out. */
function markdownUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name.startsWith('.') || NOT_PAGES.has(entry.name) ? [] : markdownUnder(path);
    return entry.isFile() && entry.name.endsWith('.md') ? [path] : [];
  });
}
const markdownPages = markdownUnder('');
const markdownFiles = ['README.md', 'bench/README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

describe('the command line on its pages', () => {
  it('every command has a page', () => {
    expect(commands.length).toBeGreaterThan(0);
    expect(commands.map((command) => command.name()).filter((name) => PAGES[name] === undefined)).toEqual([]);
  });

  it.each(pages)('%s has every option of its commands in an options table, and no other', (page) => {
    const documented = documentedOptions(read(page));
    const options = new Set(commands.filter((command) => PAGES[command.name()] === page).flatMap(flagsOf));
    expect(options.size).toBeGreaterThan(0);
    expect(missing(options, documented), 'options missing from the page').toEqual([]);
    expect(missing(documented, options), 'options on the page that no command has').toEqual([]);
  });

  it.each([...pages, 'docs/DESIGN.md'])('%s has an exit-code table with every exit code, and no other', (page) => {
    expect(EXIT_CODES).toContain(0);
    expect([...documentedExitCodes(read(page))].sort((a, b) => a - b)).toEqual([...new Set(EXIT_CODES)].sort((a, b) => a - b));
  });
});

describe('the conformance engine on docs/conform.md', () => {
  const conform = read('docs/conform.md');

  it('has a row for every check, and none for a check the engine does not have', () => {
    const documented = documentedNames(conform, 'check');
    expect(missing(CHECK_NAMES, documented)).toEqual([]);
    expect(missing(documented, new Set<string>(CHECK_NAMES))).toEqual([]);
  });

  it('has a row for every request kind, and none for a kind the engine does not generate', () => {
    const documented = documentedNames(conform, 'request kind');
    expect(missing(KIND_NAMES, documented)).toEqual([]);
    expect(missing(documented, new Set<string>(KIND_NAMES))).toEqual([]);
  });
});

describe('links and length', () => {
  it.each(markdownFiles)('every relative link of %s leads to a file, and to a heading where it names one', (file) => {
    expect(brokenLinks(ROOT, file, read(file))).toEqual([]);
  });

  it.each(markdownFiles)('every path %s names in code (`src/http/errors.ts`) exists', (file) => {
    expect(missingPaths(ROOT, read(file))).toEqual([]);
  });

  it('README.md stays under 11 KB', () => {
    expect(Buffer.byteLength(read('README.md'))).toBeLessThan(11 * 1024);
  });

  // A page a user reads in one sitting: depth goes to docs/conform-engine.md, reasons to the design's
  // decisions, the day's measurements to bench/README.md.
  it.each(['docs/conform.md', 'docs/DESIGN.md'])('%s stays at most 25 KB', (page) => {
    expect(Buffer.byteLength(read(page))).toBeLessThanOrEqual(25 * 1024);
  });

  // No page grows past what a person reads: a page over the cap is tightened, or its measurements
  // and history move to bench/README.md and CHANGELOG.md; it is not split only to fit.
  it('every Markdown page of the repository (README, CHANGELOG, docs/, bench/, test/) stays at most 30,000 bytes', () => {
    expect(markdownPages).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'bench/README.md', 'docs/conform-engine.md', 'docs/proxy.md']));
    expect(markdownPages.map((page) => [page, Buffer.byteLength(read(page))]).filter(([, bytes]) => (bytes as number) > MAX_PAGE_BYTES)).toEqual([]);
  });
});

/** The test can fail: each reading finds what a page leaves out. */
describe('the readings of a page', () => {
  const conform = read('docs/conform.md');

  it('miss a check whose row is gone', () => {
    const without = conform.replace(/^\| `echo` \|.*\n/m, '');
    expect(without).not.toBe(conform);
    expect(missing(CHECK_NAMES, documentedNames(without, 'check'))).toEqual(['echo']);
  });

  it('miss an option whose row is gone, and see a flag named only in prose as missing', () => {
    const without = conform.replace(/^\| `--seed <n>` \|.*\n/m, '');
    expect(without).not.toBe(conform);
    expect(without).toContain('--seed');
    const conformCommand = commands.find((command) => command.name() === 'conform');
    expect(conformCommand).toBeDefined();
    expect(missing(conformCommand ? flagsOf(conformCommand) : [], documentedOptions(without))).toEqual(['--seed']);
  });

  it('miss an exit code whose row is gone, and read bold codes', () => {
    const without = conform.replace(/^\| 2 \|.*\n/m, '');
    expect(without).not.toBe(conform);
    expect(missing(EXIT_CODES, documentedExitCodes(without))).toEqual([2]);
    expect(documentedExitCodes('| exit code | meaning |\n| --- | --- |\n| **0** | held |\n| `1` | not a code cell |\n')).toEqual(new Set([0]));
  });

  it('take only tables headed by the name asked for, and nothing inside code blocks', () => {
    const page = ['| option | meaning |', '| --- | --- |', '| `--a`, `--b <x>` | two flags |', '', '| flag | meaning |', '| --- | --- |', '| `--c` | another table |', '', '```', '| option | x |', '| --- | --- |', '| `--d` | an example |', '```'].join('\n');
    expect(documentedOptions(page)).toEqual(new Set(['--a', '--b']));
  });

  it('find links to files that do not exist and to headings a page does not have', () => {
    const page = '[gone](missing.md) [design](DESIGN.md) [decisions](DESIGN.md#decisions) [no such heading](DESIGN.md#no-such-heading) [here](#a-heading) [web](https://example.com) [up](../openapi.yaml)\n\n## A heading\n';
    expect(relativeLinks(page)).toEqual(['missing.md', 'DESIGN.md', 'DESIGN.md#decisions', 'DESIGN.md#no-such-heading', '#a-heading', '../openapi.yaml']);
    expect(brokenLinks(ROOT, 'docs/example.md', page)).toEqual(['missing.md', 'DESIGN.md#no-such-heading']);
  });

  it('find paths in code spans that the repository does not have, and leave patterns and generated files alone', () => {
    const page = 'See `src/http/errors.ts`, `src/contract/index.ts`, `test/<area>/`, `contracts/pacts/x.json`, `npm test` and `docs/DESIGN.md, decision 6`.\n\n```\nsrc/nowhere.ts\n```\n';
    expect(codePaths(page)).toEqual(['src/http/errors.ts', 'src/contract/index.ts']);
    expect(missingPaths(ROOT, page)).toEqual(['src/contract/index.ts']);
  });

  it('make anchors the way GitHub does', () => {
    expect(slug('`npm start`: both side by side')).toBe('npm-start-both-side-by-side');
    expect(slug('4. Every non-200 answer is an Error')).toBe('4-every-non-200-answer-is-an-error');
    expect([...headingAnchors('## Options\n### Options\n')]).toEqual(['options', 'options-1']);
  });
});
