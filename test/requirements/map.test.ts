/**
 * The conformance map (issue 30) holds: docs/http-map.md is the rendering of its rows; each row is
 * well-formed, names a check the oracle has, is provoked by requests the engine sends and is
 * proven by a faulty implementation that check catches; and the sections of the RFCs that demand
 * something of a server each have a row.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CHECK_NAMES, coverageCases, requestArbitrary, type CheckName } from '../../fuzz/index.js';
import { OVERLAP_SHAPES } from '../../fuzz/run/overlap.js';
import { loadContract } from '../../src/openapi/index.js';
import { REQUIREMENTS, isTested, type Requirement } from '../../oracle/requirements/index.js';
import { renderHttpMap } from '../../oracle/requirements/markdown.js';
import { coversSection, MAP_SECTIONS, type MapSection, type RowFile } from '../../oracle/requirements/sections.js';
import { FAULTY_IMPLEMENTATIONS, ORACLE_ONLY_FAULTS } from '../faulty/faults.js';
import { LINK_IMPLEMENTATIONS } from '../faulty/links.js';
import { MAP_ANSWER_FAULTS } from '../faulty/map-answers.js';
import { MAP_JSON_FAULTS } from '../faulty/map-json.js';
import { MAP_MESSAGE_FAULTS } from '../faulty/map-messages.js';
import { MAP_TARGET_FAULTS } from '../faulty/map-targets.js';
import { MAP_TIME_FAULTS } from '../faulty/map-time.js';
import { MEDIA_FAULTS } from '../faulty/media.js';
import { OPERATION_FAULTS } from '../faulty/operations.js';
import { PATTERN_IMPLEMENTATIONS } from '../faulty/resource-patterns.js';
import { fullStore } from '../support/contracts.js';
import { TEST_TOKEN } from '../support/servers.js';

const ROOT = resolve(import.meta.dirname, '../..');

interface ProvenFault {
  readonly name: string;
  readonly caughtBy?: CheckName;
  /** The other checks its defect breaks: a list, or (links, resource patterns) a record of them with why. */
  readonly touches?: readonly CheckName[] | Partial<Record<CheckName, string>>;
}

function isList(touches: NonNullable<ProvenFault['touches']>): touches is readonly CheckName[] {
  return Array.isArray(touches);
}

function touchesOf(fault: ProvenFault | undefined): readonly string[] {
  const touches = fault?.touches ?? [];
  return isList(touches) ? touches : Object.keys(touches);
}

/**
 * Every faulty implementation a row may name (FAULTY_IMPLEMENTATIONS holds the hygiene, wire,
 * JSON-text, coverage and overlap faults): adding a file of faults is one line here.
 */
const FAULT_ARRAYS: readonly (readonly ProvenFault[])[] = [FAULTY_IMPLEMENTATIONS, ORACLE_ONLY_FAULTS, OPERATION_FAULTS, LINK_IMPLEMENTATIONS, PATTERN_IMPLEMENTATIONS, MEDIA_FAULTS, MAP_ANSWER_FAULTS, MAP_JSON_FAULTS, MAP_MESSAGE_FAULTS, MAP_TARGET_FAULTS, MAP_TIME_FAULTS];
const FAULTS = new Map<string, ProvenFault>(FAULT_ARRAYS.flat().map((fault) => [fault.name, fault]));

/** The sections the map helper's rows (answers.ts) answer for; the others' are switched on by ALL_ROW_FILES_MERGED. */
const MERGED_ROW_FILES: readonly RowFile[] = ['answers'];
/**
 * Off while the rows of targets, messages, JSON texts, challenges and time are written in other
 * branches: the lead sets it when merging them, and every section of MAP_SECTIONS must then have a row.
 */
const ALL_ROW_FILES_MERGED = true;

/** Every tag the engine's requests carry against the bundled contract (RequestCase.tags). */
/** Tags the run adds as it sends (the canary's probes, the capacity fill), with the file that adds each: a test below finds each there. */
const RUN_TAGS: readonly (readonly [string, string])[] = [
  ['growth:canary', 'fuzz/run/runner.ts'],
  ['growth:connections', 'fuzz/run/canary.ts'],
  ['growth:entries', 'fuzz/run/canary.ts'],
  ['growth:sessions', 'fuzz/generation/capacity.ts'],
  ['capacity:fill', 'fuzz/generation/capacity.ts'],
];

/** The random phase's sample: a fixed seed, so the set of tags is the same every run. */
const RANDOM_SEED = 30;

function generatedTags(): ReadonlySet<string> {
  const contract = loadContract();
  const sample = fc.sample(requestArbitrary(contract, { token: TEST_TOKEN }), { seed: RANDOM_SEED, numRuns: 3000 });
  // The overlap phase tags each request with its group's shape (fuzz/run/overlap.ts), and the
  // canary's rounds theirs (RUN_TAGS) as the run goes.
  const overlap = [...OVERLAP_SHAPES.map(({ shape }) => `overlap:${shape}`), ...RUN_TAGS.map(([tag]) => tag)];
  // The example full store declares what the bundled contract does not (reads, HEAD where GET is, 204s).
  const full = coverageCases(fullStore(), { token: TEST_TOKEN });
  return new Set([...coverageCases(contract, { token: TEST_TOKEN }), ...full, ...sample].flatMap((c) => [...(c.tags ?? []), ...c.setup.flatMap((s) => s.tags ?? [])]).concat(overlap));
}

/** A row's tag is carried: exactly, or, ending in `:`, as the start of a carried tag. */
function carried(tag: string, tags: ReadonlySet<string>): boolean {
  return tag.endsWith(':') ? [...tags].some((t) => t.startsWith(tag)) : tags.has(tag);
}

function uncovered(sections: readonly MapSection[], rows: readonly Requirement[]): string[] {
  return sections.filter((s) => !rows.some((row) => row.rfc === s.rfc && coversSection(row.section, s.section))).map((s) => `${s.rfc}, section ${s.section} (${s.about}; ${s.owner}.ts)`);
}

describe('docs/http-map.md and its pages', () => {
  it('are the rendering of the rows (run npm run docs:map)', () => {
    const pages = renderHttpMap(REQUIREMENTS);
    const written = readdirSync(resolve(ROOT, 'docs')).filter((name) => /^http-map.*\.md$/.test(name)).map((name) => `docs/${name}`);
    expect(written.sort(), 'the map\'s pages: run npm run docs:map').toEqual([...pages.keys()].sort());
    for (const [path, page] of pages) expect(readFileSync(resolve(ROOT, path), 'utf8') === page, `${path} differs from the rows: run npm run docs:map`).toBe(true);
  });

  it('render a page per RFC, rows in the order of their sections, an untestable row with its reason', () => {
    const pages = renderHttpMap([
      { id: '9112-5.1-b', rfc: 'RFC 9112', section: '5.10', says: 'b | c', untestable: 'nobody sees it' },
      { id: '9112-5.1-a', rfc: 'RFC 9112', section: '5.9', says: 'a', provoke: { how: 'every request', tags: [] }, judge: { check: 'message-framing', how: 'reads', severity: 'warning', why: 'free' }, faults: ['f'] },
    ]);
    expect([...pages.keys()]).toEqual(['docs/http-map.md', 'docs/http-map-9112.md']);
    expect(pages.get('docs/http-map.md')).toContain('| [RFC 9112: HTTP/1.1](http-map-9112.md) | 2 | 1 | 1 | 1 |');
    const page = pages.get('docs/http-map-9112.md') ?? '';
    expect(page.indexOf('9112-5.1-a')).toBeLessThan(page.indexOf('9112-5.1-b'));
    expect(page).toContain('| `9112-5.1-b` | 5.10 | b \\| c | — | — | untestable: nobody sees it |');
    expect(page).toContain('| every request | `message-framing`, **warning**: reads; why a warning: free | `f` |');
  });
});

describe('the rows', () => {
  it('have unique, well-formed ids: <rfc number>-<section>-<name>', () => {
    const ids = REQUIREMENTS.map((row) => row.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const row of REQUIREMENTS) {
      expect(row.id, row.id).toMatch(/^[0-9]{4}-[0-9]+(\.[0-9]+)*-[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(row.id.startsWith(`${row.rfc.slice(4)}-${row.section}-`), `${row.id} is of ${row.rfc}, section ${row.section}`).toBe(true);
      expect(row.says.trim(), row.id).not.toBe('');
    }
  });

  it('name a check the oracle has; a warning says why', () => {
    for (const row of REQUIREMENTS.filter(isTested)) {
      expect(CHECK_NAMES, row.id).toContain(row.judge.check);
      if (row.judge.severity === 'warning') expect(row.judge.why?.trim() ?? '', `${row.id} is a warning and says why`).not.toBe('');
    }
  });

  it('untestable rows say why', () => {
    for (const row of REQUIREMENTS.filter((r) => !isTested(r))) expect('untestable' in row && row.untestable.trim() !== '', row.id).toBe(true);
  });

  it('are each proven by a faulty implementation that the row\'s check catches', () => {
    for (const row of REQUIREMENTS.filter(isTested)) {
      expect(row.faults.length, `${row.id} names a faulty implementation`).toBeGreaterThan(0);
      for (const name of row.faults) {
        const fault = FAULTS.get(name);
        expect(fault, `${row.id}: ${name} is a faulty implementation under test/faulty`).toBeDefined();
        const checks = [fault?.caughtBy, ...touchesOf(fault)];
        expect(checks, `${row.id}: ${name} is caught by ${row.judge.check}`).toContain(row.judge.check);
      }
    }
  });

  it('name run-time tags the engine adds where this test says it does', () => {
    for (const [tag, file] of RUN_TAGS) expect(readFileSync(resolve(ROOT, file), 'utf8'), `${tag} in ${file}`).toContain(`'${tag}'`);
  });

  it('are provoked by requests the engine sends against the bundled contract and the example full store (coverage, and the random phase under seed 30)', () => {
    const tags = generatedTags();
    for (const row of REQUIREMENTS.filter(isTested)) {
      for (const tag of row.provoke.tags) expect(carried(tag, tags), `${row.id}: some request carries the tag ${tag}`).toBe(true);
    }
  });
});

describe('the sections of the RFCs', () => {
  it('are listed once each', () => {
    const keys = MAP_SECTIONS.map((s) => `${s.rfc} ${s.section}`);
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
  });

  it('each have a row, for the row files merged', () => {
    expect(uncovered(MAP_SECTIONS.filter((s) => MERGED_ROW_FILES.includes(s.owner)), REQUIREMENTS)).toEqual([]);
  });

  it.runIf(ALL_ROW_FILES_MERGED)('each have a row, every one of them', () => {
    expect(uncovered(MAP_SECTIONS, REQUIREMENTS)).toEqual([]);
  });

  it('are found uncovered where no row is of them or below them', () => {
    const row: Requirement = { id: '9110-9.3.2-x', rfc: 'RFC 9110', section: '9.3.2', says: 'x', untestable: 'y' };
    const sections: MapSection[] = [
      { rfc: 'RFC 9110', section: '9.3', about: 'a', owner: 'targets' },
      { rfc: 'RFC 9110', section: '9.3.20', about: 'b', owner: 'targets' },
      { rfc: 'RFC 9112', section: '9.3', about: 'c', owner: 'messages' },
    ];
    expect(uncovered(sections, [row])).toEqual(['RFC 9110, section 9.3.20 (b; targets.ts)', 'RFC 9112, section 9.3 (c; messages.ts)']);
  });
});
