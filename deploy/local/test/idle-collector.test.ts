import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startIdleCollector } from '../bin/idle-collector.mjs';
import { localNodeFlags } from '../src/node-flags.ts';

const MiB = 2 ** 20;

describe('idle collector (issue 20: garbage given back once a part goes quiet)', () => {
  afterEach(() => vi.useRealTimers());

  /** A fake event loop: each sample adds `busyShare` of 100 ms as active time. */
  function fakeProcess() {
    const state = { busyShare: 0, resident: 100 * MiB, active: 0, idle: 0 };
    return {
      state,
      utilization: () => {
        state.active += 100 * state.busyShare;
        state.idle += 100 * (1 - state.busyShare);
        return { active: state.active, idle: state.idle, utilization: 0 };
      },
      residentBytes: () => state.resident,
    };
  }

  it('collects once the process has been quiet for the samples asked, only after it grew, never while busy', () => {
    vi.useFakeTimers();
    const fake = fakeProcess();
    const collect = vi.fn(() => {
      fake.state.resident -= 30 * MiB;
    });
    const stop = startIdleCollector({
      collect,
      utilization: fake.utilization,
      residentBytes: fake.residentBytes,
      sampleMs: 100,
      quietSamples: 3,
      growthBytes: 8 * MiB,
    });

    // Start-up: quiet, and everything since start counts as growth: one collection after 3 quiet samples.
    vi.advanceTimersByTime(200);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(collect).toHaveBeenCalledTimes(1);

    // Quiet without growth: nothing more.
    vi.advanceTimersByTime(2_000);
    expect(collect).toHaveBeenCalledTimes(1);

    // A burst: busy and growing, no collection while it lasts.
    fake.state.busyShare = 0.9;
    fake.state.resident += 60 * MiB;
    vi.advanceTimersByTime(2_000);
    expect(collect).toHaveBeenCalledTimes(1);

    // Quiet again: collected after the quiet samples, once.
    fake.state.busyShare = 0.01;
    vi.advanceTimersByTime(300);
    expect(collect).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(2_000);
    expect(collect).toHaveBeenCalledTimes(2);
    stop();
  });

  it('is preloaded by the runner flags and gives a quiet process its garbage back', async () => {
    // Builds ~100 MiB of short-lived objects and buffers, drops them, then stays quiet for 2.5 s: the
    // resident size must fall well below its peak (without the collector it stays there).
    const script = `
      let junk = [];
      const end = Date.now() + 1500;
      while (Date.now() < end) {
        junk.push(Array.from({ length: 1000 }, (_, i) => ({ i, text: 'order ' + i, body: Buffer.from('quote ' + i) })));
        if (junk.length > 200) junk = [];
      }
      junk = [];
      const peak = process.memoryUsage.rss();
      setTimeout(() => console.log(JSON.stringify({ peak, quiet: process.memoryUsage.rss() })), 2500);
    `;
    const { stdout } = await promisify(execFile)(process.execPath, [...localNodeFlags('service'), '-e', script]);
    const { peak, quiet } = JSON.parse(stdout) as { peak: number; quiet: number };
    expect(peak - quiet, `peak ${peak / MiB} MiB, quiet ${quiet / MiB} MiB`).toBeGreaterThan(20 * MiB);
  });
});
