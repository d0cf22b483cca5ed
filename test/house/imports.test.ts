/**
 * The kit's import graph (issue 27): no circle, no arrow back up the layers (LAYERS in graph.ts,
 * the order docs/DESIGN.md draws), and no room entered but by its face. Each rule is first shown
 * to fail on a small graph that breaks it.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { circles, deepImports, FACES, importGraph, kitFiles, LAYERS, upwardArrows, type Graph } from './graph.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const graphOf = (arrows: Record<string, readonly string[]>): Graph => new Map(Object.entries(arrows));

describe('the graph functions, on small graphs', () => {
  it('find a circle of three files and a file that imports itself, and none in a tree', () => {
    const looped = graphOf({ 'oracle/a.ts': ['oracle/b.ts'], 'oracle/b.ts': ['oracle/c.ts'], 'oracle/c.ts': ['oracle/a.ts', 'src/http/d.ts'], 'src/http/d.ts': [], 'fuzz/e.ts': ['fuzz/e.ts'] });
    expect(circles(looped)).toEqual([['oracle/a.ts', 'oracle/b.ts', 'oracle/c.ts'], ['fuzz/e.ts']]);
    expect(circles(graphOf({ 'cli/a.ts': ['fuzz/index.ts', 'oracle/index.ts'], 'fuzz/index.ts': ['oracle/index.ts'], 'oracle/index.ts': [] }))).toEqual([]);
  });

  it('find an arrow back up the layers, and let arrows down and within a room pass', () => {
    const graph = graphOf({ 'oracle/check.ts': ['fuzz/index.ts', 'src/openapi/index.ts', 'oracle/types.ts'], 'oracle/types.ts': [], 'fuzz/index.ts': ['oracle/index.ts'], 'oracle/index.ts': [], 'src/openapi/index.ts': [] });
    expect(upwardArrows(graph)).toEqual(['oracle/check.ts -> fuzz/index.ts']);
  });

  it("find an import of another room's inside, and let its faces and the room's own files pass", () => {
    const graph = graphOf({
      'proxy/proxy.ts': ['oracle/classify.ts', 'oracle/index.ts', 'proxy/summary.ts', 'src/http/portable.ts'],
      'cli/outcome.ts': ['fuzz/defaults.ts', 'fuzz/run/reachable.ts'],
      'src/reference/app.ts': ['src/http/pipeline.ts', 'src/openapi/index.ts'],
    });
    expect(deepImports(graph)).toEqual(['proxy/proxy.ts -> oracle/classify.ts', 'cli/outcome.ts -> fuzz/run/reachable.ts', 'src/reference/app.ts -> src/http/pipeline.ts']);
  });

  it('each face says why it is one', () => {
    for (const [file, why] of FACES) expect(why, file).not.toBe('');
  });
});

describe('the kit', () => {
  const files = kitFiles(ROOT);
  const graph = importGraph(ROOT, files);

  it('is read whole: every room has files, and the arrows were found', () => {
    for (const room of LAYERS) expect(files.some((file) => file.startsWith(`${room}/`)), room).toBe(true);
    expect(graph.get('fuzz/index.ts')).toContain('oracle/index.ts');
    expect(graph.get('cli/main.ts')).toContain('cli/run/conform.ts'); // a dynamic import()
  });

  it('has no circle', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('has no arrow back up the layers', () => {
    expect(upwardArrows(graph)).toEqual([]);
  });

  it("has no room that imports another room's inside", () => {
    expect(deepImports(graph)).toEqual([]);
  });
});
