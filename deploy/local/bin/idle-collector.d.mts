// Types for idle-collector.mjs, which stays plain JavaScript because Node preloads it (--import) into the
// runner's parts before any TypeScript tooling. Keep these in step with the exports there.
import type { EventLoopUtilization } from 'node:perf_hooks';

export declare const IDLE_COLLECTOR_GLOBAL: string;
export declare const SAMPLE_MS: number;
export declare const QUIET_SAMPLES: number;
export declare const QUIET_UTILIZATION: number;
export declare const GROWTH_BYTES: number;

export interface IdleCollectorOptions {
  /** Runs one collection. */
  collect: () => void;
  utilization?: () => EventLoopUtilization;
  residentBytes?: () => number;
  sampleMs?: number;
  quietSamples?: number;
  quietUtilization?: number;
  growthBytes?: number;
}

/** Collects once the process has been quiet for quietSamples samples after growing by growthBytes; returns a stop function. */
export declare function startIdleCollector(options: IdleCollectorOptions): () => void;
