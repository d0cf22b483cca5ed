/**
 * The proxy needs the engine's judging and wire, never its run: nothing under proxy/ may reach,
 * directly or through other files, the file that defines `runConformance` (issue 18). A walk over
 * the import lines of the source (static imports, re-exports, dynamic imports).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** `from '…'`, a side-effect `import '…'` and `import('…')`, wherever the statement starts. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;

/** The source files a file imports (relative specifiers; packages are not the house's). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const specifier = match[1] ?? '';
    if (!specifier.startsWith('.')) continue;
    const target = resolve(dirname(file), specifier).replace(/\.js$/, '');
    const candidates = [`${target}.ts`, join(target, 'index.ts')];
    const hit = candidates.find((candidate) => existsSync(candidate));
    if (hit !== undefined) found.push(hit);
  }
  return found;
}

/** The path of imports from `start` to `goal` (source files, as relative paths), or undefined when it cannot reach it. */
function pathTo(start: string, goal: string): string[] | undefined {
  const cameFrom = new Map<string, string | undefined>([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (file === goal) {
      const path: string[] = [];
      for (let at: string | undefined = file; at !== undefined; at = cameFrom.get(at)) path.unshift(relative(ROOT, at));
      return path;
    }
    for (const next of importsOf(file)) {
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      queue.push(next);
    }
  }
  return undefined;
}

function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The file that defines runConformance, found by its text rather than named, so a move cannot hide it. */
function runnerFile(): string {
  const defining = sourcesUnder(join(ROOT, 'fuzz')).filter((file) => /export (async )?function runConformance\b/.test(readFileSync(file, 'utf8')));
  expect(defining).toHaveLength(1);
  return defining[0] as string;
}

describe('the proxy reaches the engine’s judging and wire, never its run', () => {
  it('the walk finds the runner where it is reached: from the engine’s barrel', () => {
    // Proof that the walk can fail: the barrel exports runConformance, so it reaches its file.
    expect(pathTo(join(ROOT, 'fuzz/index.ts'), runnerFile())).toBeDefined();
  });

  it('no file under proxy/ imports, directly or through other files, the file that defines runConformance', () => {
    const runner = runnerFile();
    const reaching = sourcesUnder(join(ROOT, 'proxy'))
      .map((file) => pathTo(file, runner))
      .filter((path) => path !== undefined)
      .map((path) => path.join(' -> '));
    expect(reaching).toEqual([]);
  });
});
