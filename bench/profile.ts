/**
 * Reading a V8 CPU profile (`node --cpu-prof`, the .cpuprofile JSON that Chrome DevTools opens)
 * down to the functions that took the most time themselves, for `npm run bench -- --profile`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

/** The parts of the .cpuprofile format used here (https://chromedevtools.github.io/devtools-protocol/tot/Profiler/#type-Profile). */
export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface HotFunction {
  readonly name: string;
  readonly where: string;
  /** Time in the function itself. */
  readonly selfMs: number;
  /** Time in the function and everything it called. */
  readonly totalMs: number;
  /** Self time as a share of the busy time (samples that were not idle). */
  readonly selfPercent: number;
  readonly totalPercent: number;
}

const IDLE = '(idle)';

/**
 * Self and total time per function (summed over every call path to the same function), largest
 * self time first. Shares are of the busy time: the profile spans the whole life of the process,
 * idle stretches between benchmark runs included.
 */
export function hotFunctions(profile: CpuProfile, root: string, top = 15): HotFunction[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const keyOf = new Map<number, { key: string; name: string; where: string }>();
  for (const node of profile.nodes) {
    const frame = node.callFrame;
    const file = frame.url.startsWith('file://') ? relative(root, new URL(frame.url).pathname) : frame.url;
    const where = file === '' ? '' : `${file}:${frame.lineNumber + 1}`;
    const name = frame.functionName === '' ? '(anonymous)' : frame.functionName;
    keyOf.set(node.id, { key: `${name} ${where}`, name, where });
  }
  const times = new Map<string, { name: string; where: string; self: number; total: number }>();
  const entry = (id: number): { name: string; where: string; self: number; total: number } => {
    const { key, name, where } = keyOf.get(id) ?? { key: '?', name: '?', where: '' };
    let found = times.get(key);
    if (!found) {
      found = { name, where, self: 0, total: 0 };
      times.set(key, found);
    }
    return found;
  };
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] as number;
    const delta = profile.timeDeltas[i] ?? 0;
    if (!byId.has(id) || keyOf.get(id)?.name === IDLE) continue;
    busy += delta;
    entry(id).self += delta;
    // Each function on the stack once, however often it recurs.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const key = keyOf.get(at)?.key ?? '?';
      if (seen.has(key)) continue;
      seen.add(key);
      entry(at).total += delta;
    }
  }
  const share = (micros: number): number => (busy > 0 ? (100 * micros) / busy : 0);
  return [...times.values()]
    .sort((a, b) => b.self - a.self)
    .slice(0, top)
    .map((e) => ({ name: e.name, where: e.where, selfMs: e.self / 1000, totalMs: e.total / 1000, selfPercent: share(e.self), totalPercent: share(e.total) }));
}

/** The newest .cpuprofile in `dir`, parsed, with its path. */
export function newestProfile(dir: string): { file: string; profile: CpuProfile } | undefined {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  const file = files[0];
  return file === undefined ? undefined : { file, profile: JSON.parse(readFileSync(file, 'utf8')) as CpuProfile };
}
