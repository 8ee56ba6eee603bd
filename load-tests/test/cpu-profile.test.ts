// The profile reader every profiling tool prints with: self, inclusive (a recursive function counted once
// per sample) and per-package times, and the window that keeps start-up out of a timed load's figures.
import { describe, expect, it } from 'vitest';
import { packageOf, summariseSamples, topLines, type CpuProfile } from '../src/cpu-profile.js';

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 9 });
// (root) -> handle (shop's gateway) -> parse (recursive, in a dependency) -> parse
const profile: CpuProfile = {
  startTime: 1_000,
  nodes: [
    { id: 1, callFrame: frame('(root)', ''), children: [2] },
    { id: 2, callFrame: frame('handle', 'file:///work/main/gateway/dist/forward.js'), children: [3] },
    { id: 3, callFrame: frame('parse', 'file:///work/main/node_modules/undici/lib/parse.js'), children: [4] },
    { id: 4, callFrame: frame('parse', 'file:///work/main/node_modules/undici/lib/parse.js') },
  ],
  // Sampled at 1,010 / 1,030 / 1,060 / 1,100 µs.
  samples: [2, 4, 4, 3],
  timeDeltas: [10, 20, 30, 40],
};

describe('cpu profile summary', () => {
  it('adds self time by function and package, and inclusive time counting a recursive function once', () => {
    const s = summariseSamples(profile);
    expect(s.totalUs).toBe(100);
    expect(s.self.get('handle gateway/dist/forward.js:10')).toBe(10);
    expect(s.self.get('parse ~/undici/lib/parse.js:10')).toBe(90);
    expect(s.inclusive.get('parse ~/undici/lib/parse.js:10')).toBe(90);
    expect(s.inclusive.get('handle gateway/dist/forward.js:10')).toBe(100);
    expect(Object.fromEntries(s.byPackage)).toEqual({ gateway: 10, '~/undici': 90 });
    expect(topLines(s.self, s.totalUs, 1)).toEqual([' 90.0%  parse ~/undici/lib/parse.js:10']);
  });

  it('keeps only the samples inside the window', () => {
    const s = summariseSamples(profile, { from: 1_020, to: 1_070 });
    expect(s.totalUs).toBe(50);
    expect([...s.self.keys()]).toEqual(['parse ~/undici/lib/parse.js:10']);
  });

  it("names Node's own code and samples with no script", () => {
    expect(packageOf('node:internal/streams/writable')).toBe('(node)');
    expect(packageOf('')).toBe('(native, gc, idle)');
  });
});
