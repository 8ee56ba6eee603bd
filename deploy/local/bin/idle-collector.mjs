// Preloaded (`--import`) into every Node process the local runner starts (node-flags.ts), which also exposes
// V8's collector to it as `globalThis[IDLE_COLLECTOR_GLOBAL]` (--expose-gc-as: not the usual `gc`, so no
// library sees it). Plain JavaScript: Node loads it before any TypeScript tooling (issue 20).
//
// Why: after a burst of load each process kept its garbage committed (the whole stack ~200 MiB resident
// more than after a full collection). V8's memory reducer is meant to shrink the heap of a process that went
// quiet, but it judges the allocation rate from samples taken at collections, and a quiet process makes
// none, so in Node it keeps waiting ("high alloc, foreground" with --trace-memory-reducer) and never
// collects. This does what it would: once a process has been quiet for a second (its event loop busy
// under 5% of the time) and its resident memory grew by 8 MiB since the last collection, it runs one
// memory-reducing full collection ('last-resort': compacts and gives freed pages and malloc memory back;
// a plain gc() leaves the resident size as it was). Never while the process is busy, so requests do not
// wait on it; at most once per growth, so a quiet process is not collected again and again.
import { performance } from 'node:perf_hooks';

export const IDLE_COLLECTOR_GLOBAL = 'localRunnerCollectGarbage';

/** How often the event loop is sampled; the process must be quiet for QUIET_SAMPLES in a row. */
export const SAMPLE_MS = 250;
export const QUIET_SAMPLES = 4;
/** Event-loop utilisation under which a sample counts as quiet (readiness polls and timers stay below). */
export const QUIET_UTILIZATION = 0.05;
/** Resident growth since the last collection (start: 0) that makes a quiet process worth collecting. */
export const GROWTH_BYTES = 8 * 2 ** 20;

/**
 * Watches the process and collects when it has gone quiet after growing. `collect` runs one collection;
 * the rest is injectable for tests. Returns a stop function.
 */
export function startIdleCollector({
  collect,
  utilization = () => performance.eventLoopUtilization(),
  residentBytes = () => process.memoryUsage.rss(),
  sampleMs = SAMPLE_MS,
  quietSamples = QUIET_SAMPLES,
  quietUtilization = QUIET_UTILIZATION,
  growthBytes = GROWTH_BYTES,
}) {
  let previous = utilization();
  let quietInARow = 0;
  let residentAfterCollection = 0;
  const timer = setInterval(() => {
    const now = utilization();
    const busy = (now.active - previous.active) / Math.max(1, now.idle + now.active - previous.idle - previous.active);
    previous = now;
    quietInARow = busy < quietUtilization ? quietInARow + 1 : 0;
    if (quietInARow < quietSamples || residentBytes() - residentAfterCollection < growthBytes) return;
    collect();
    residentAfterCollection = residentBytes();
    quietInARow = 0;
    // The collection's own time counts as busy in the next sample; start the next window after it.
    previous = utilization();
  }, sampleMs);
  // Never keeps a process alive that would otherwise exit.
  timer.unref();
  return () => clearInterval(timer);
}

const exposed = globalThis[IDLE_COLLECTOR_GLOBAL];
if (typeof exposed === 'function') {
  startIdleCollector({ collect: () => exposed({ type: 'major', execution: 'sync', flavor: 'last-resort' }) });
}
