/**
 * CHANGELOG.md keeps up with the version (Keep a Changelog 1.1.0): the version in package.json has
 * its section, sections run from the newest down, each dated (or "Unreleased", only at the top) and
 * made of the format's own headings - and the package ships the file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; files: string[] };

/** The kinds of change Keep a Changelog names. */
const KINDS = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];

interface Release {
  readonly version: string;
  readonly date: string;
  readonly kinds: readonly string[];
}

/** The `## [x.y.z] - date` sections, with the `### Kind` headings under each. */
function releases(text: string): Release[] {
  return text
    .split(/^(?=## )/m)
    .slice(1)
    .map((section) => {
      const heading = /^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2}|Unreleased)$/m.exec(section);
      if (!heading) throw new Error(`not a release heading: ${section.split('\n', 1)[0] ?? ''}`);
      return { version: heading[1] as string, date: heading[2] as string, kinds: [...section.matchAll(/^### (.+)$/gm)].map(([, kind]) => kind as string) };
    });
}

const order = (version: string): number[] => version.split('.').map(Number);
const newer = (a: string, b: string): boolean => {
  const [x, y] = [order(a), order(b)];
  const differs = x.findIndex((part, i) => part !== y[i]);
  return differs >= 0 && (x[differs] as number) > (y[differs] as number);
};

describe('CHANGELOG.md', () => {
  const found = releases(changelog);

  it("has a section for package.json's version", () => {
    expect(found.map((release) => release.version)).toContain(pkg.version);
  });

  it('runs from the newest version down, dated, with "Unreleased" only at the top', () => {
    for (let i = 1; i < found.length; i++) expect(newer((found[i - 1] as Release).version, (found[i] as Release).version), `${found[i - 1]?.version} before ${found[i]?.version}`).toBe(true);
    expect(found.slice(1).filter((release) => release.date === 'Unreleased')).toEqual([]);
  });

  it("sorts every change under the format's headings", () => {
    for (const release of found) {
      expect(release.kinds.length, release.version).toBeGreaterThan(0);
      expect(release.kinds.filter((kind) => !KINDS.includes(kind)), release.version).toEqual([]);
    }
  });

  it('ships in the package', () => {
    expect(pkg.files).toContain('CHANGELOG.md');
  });

  it('the readings can fail: a version without a section, a section out of order, a kind of its own', () => {
    const versions = (text: string): string[] => releases(text).map((release) => release.version);
    expect(versions(changelog.replace(`## [${pkg.version}]`, '## [9.9.9]'))).not.toContain(pkg.version);
    expect(newer('0.1.0', '0.2.0')).toBe(false);
    expect(newer('0.10.0', '0.9.1')).toBe(true);
    expect(releases('# C\n\n## [1.0.0] - 2026-01-01\n### Improved\n')[0]?.kinds).toEqual(['Improved']);
    expect(() => releases('# C\n\n## 1.0.0\n')).toThrow(/not a release heading/);
  });
});
