/**
 * The kit's import graph and the three rules it keeps (docs/DESIGN.md, "Rooms and layers"): no
 * circle, no arrow back up the layers, and no room entered but by its face. The functions take the
 * graph as data, so test/house/imports.test.ts proves each can fail on a small graph of its own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** A file (a path from the kit's root, with `/`) and the files of the kit it imports. */
export type Graph = ReadonlyMap<string, readonly string[]>;

/**
 * The rooms, lowest first: a room may import only rooms before it in this list. src/ is three
 * rooms; every other top-level folder of the kit is one.
 */
export const LAYERS = ['src/openapi', 'src/http', 'src/reference', 'oracle', 'fuzz', 'contracts', 'mock', 'msw', 'proxy', 'api', 'bench', 'cli'] as const;

/**
 * How another room may be entered: by its face. `index.ts` is every room's face; two rooms' parts
 * are also reached by a narrower face where loading the whole room would be wrong.
 */
export const FACES: readonly (readonly [file: string, why: string])[] = [
  ['index.ts', "the room's face"],
  ['portable.ts', 'the runtime-neutral part of the room, for msw/ (which runs in a browser: no Node built-in)'],
  ['defaults.ts', "what the command line reads at start-up without loading the room's face (defaults, the errors it maps to exit codes)"],
];

/** The room a file stands in (undefined: not a file of the kit's rooms). */
export function roomOf(file: string, layers: readonly string[] = LAYERS): string | undefined {
  return layers.find((room) => file.startsWith(`${room}/`));
}

/** Whether a file is the face of its room. */
export function isFace(file: string, room: string): boolean {
  return FACES.some(([face]) => file === `${room}/${face}`);
}

/** Every loop of imports: each circle as its files (a strongly connected component of more than one file, or a file that imports itself). */
export function circles(graph: Graph): string[][] {
  // Tarjan's algorithm, with an explicit stack so that a long chain of imports cannot overflow the call stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: [file: string, edge: number][] = [[start, 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as [string, number];
      const [file, edge] = frame;
      const targets = graph.get(file) ?? [];
      if (edge < targets.length) {
        frame[1] = edge + 1;
        const target = targets[edge] as string;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push([target, 0]);
        } else if (onStack.has(target)) {
          low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent[0], Math.min(low.get(parent[0]) as number, low.get(file) as number));
      if (low.get(file) !== index.get(file)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || targets.includes(file)) found.push(component.sort());
    }
  }
  return found;
}

/** The arrows that run back up: from a room to a room after it in `layers`, as `from -> to`. */
export function upwardArrows(graph: Graph, layers: readonly string[] = LAYERS): string[] {
  const floor = (file: string): number => {
    const room = roomOf(file, layers);
    return room === undefined ? -1 : layers.indexOf(room);
  };
  return [...graph].flatMap(([from, targets]) => targets.filter((to) => floor(to) > floor(from)).map((to) => `${from} -> ${to}`));
}

/** The imports that enter another room other than by its face, as `from -> to`. */
export function deepImports(graph: Graph, layers: readonly string[] = LAYERS): string[] {
  return [...graph].flatMap(([from, targets]) =>
    targets
      .filter((to) => {
        const room = roomOf(to, layers);
        return room !== undefined && room !== roomOf(from, layers) && !isFace(to, room);
      })
      .map((to) => `${from} -> ${to}`),
  );
}

/** The kit's source files: every .ts file of its rooms but tests and declaration files. */
export function kitFiles(root: string, layers: readonly string[] = LAYERS): string[] {
  const under = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return under(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
    });
  const tops = [...new Set(layers.map((room) => room.split('/')[0] as string))];
  return tops
    .flatMap((top) => under(join(root, top)))
    .map((path) => relative(root, path).split(sep).join('/'))
    .filter((file) => roomOf(file, layers) !== undefined)
    .sort();
}

/**
 * The graph of the kit's own imports: static imports and re-exports, side-effect imports, dynamic
 * `import()` and `import type` (an arrow all the same), read by TypeScript's scanner so that text
 * in comments and template strings is not taken for an import. Packages and Node built-ins are not
 * the kit's, so no arrow.
 */
export function importGraph(root: string, files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const targets = new Set<string>();
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = relative(root, resolve(root, dirname(file), fileName)).split(sep).join('/').replace(/\.js$/, '.ts');
      const hit = [target, `${target}/index.ts`].find((candidate) => known.has(candidate));
      if (hit === undefined) throw new Error(`${file} imports ${fileName}, which is no source file of the kit`);
      targets.add(hit);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}
