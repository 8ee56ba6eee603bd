// Reading a V8 .cpuprofile (node --cpu-prof) as text: where a process spent its samples, by function (self
// and inclusive time) and by package. One reader for every profiling tool here (gateway-profile.ts,
// track-profile.ts, quote-path.ts --summarise, request-log-overhead.ts --cpu-prof).
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  /** Monotonic clock, microseconds (the clock of process.hrtime). */
  startTime: number;
}

export interface ProfileSummaryOptions {
  /** Lines per list (default 25). */
  top?: number;
  /** Only the samples taken in this span of the monotonic clock, in microseconds (e.g. a timed load). */
  window?: { from: number; to: number };
}

export interface ProfileSummary {
  /** Microseconds sampled (in the window, if one was given). */
  totalUs: number;
  /** Time in the function itself, by `name file:line`. */
  self: Map<string, number>;
  /** Time in the function and what it called (a function on the stack twice counts once). */
  inclusive: Map<string, number>;
  /** Self time by package: `~/pkg` for a dependency, the repository folder for the shop's own code. */
  byPackage: Map<string, number>;
}

/** `name file:line`, with dependencies as `~/pkg/...` and the shop's own files from the repository root. */
function functionKey({ callFrame }: ProfileNode): string {
  const file = callFrame.url.replace(/^.*node_modules\//, '~/').replace(/^(file:\/\/)?.*\/work\/main\//, '');
  return `${callFrame.functionName || '(anonymous)'} ${file}:${callFrame.lineNumber + 1}`;
}

/** `~/pkg` for a dependency, the repository folder for the shop's own code, `(node)` for Node's. */
export function packageOf(url: string): string {
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return `~/${dependency[1]}`;
  const own = /\/work\/main\/(.+?)\/(?:src|dist|bin)\//.exec(url);
  if (own) return own[1];
  return url.startsWith('node:') ? '(node)' : url || '(native, gc, idle)';
}

const add = (m: Map<string, number>, key: string, us: number) => m.set(key, (m.get(key) ?? 0) + us);

export function readProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

/** Adds up a profile's samples by function (self, inclusive) and by package. */
export function summariseSamples(profile: CpuProfile, window?: ProfileSummaryOptions['window']): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const summary: ProfileSummary = { totalUs: 0, self: new Map(), inclusive: new Map(), byPackage: new Map() };
  const from = window?.from ?? -Infinity;
  const to = window?.to ?? Infinity;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    if (at < from || at > to) return;
    summary.totalUs += dt;
    const node = byId.get(id)!;
    add(summary.self, functionKey(node), dt);
    add(summary.byPackage, packageOf(node.callFrame.url), dt);
    const counted = new Set<string>();
    for (let on: number | undefined = id; on !== undefined; on = parent.get(on)) {
      const key = functionKey(byId.get(on)!);
      if (counted.has(key)) continue;
      counted.add(key);
      add(summary.inclusive, key, dt);
    }
  });
  return summary;
}

/** The top lines of one of the summary's lists, each as a share of the time sampled. */
export function topLines(times: Map<string, number>, totalUs: number, top: number): string[] {
  return [...times]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, us]) => `${((100 * us) / (totalUs || 1)).toFixed(1).padStart(5)}%  ${key}`);
}

/** A profile's time by package, and its top functions by self and inclusive time, as text. */
export function summariseProfile(file: string, options: ProfileSummaryOptions = {}): string {
  const top = options.top ?? 25;
  const s = summariseSamples(readProfile(file), options.window);
  const section = (title: string, times: Map<string, number>, n: number) =>
    [`-- ${title} --`, ...topLines(times, s.totalUs, n)].join('\n');
  return [
    `${file}: ${(s.totalUs / 1000).toFixed(0)} ms sampled`,
    section('self time by package', s.byPackage, Math.min(top, 20)),
    section('self time by function', s.self, top),
    section('inclusive time by function', s.inclusive, top),
  ].join('\n');
}
