// The timing loop the data-set benchmarks share (dashboard-100k, customers-100k, security-1m): each case
// is requested one at a time, warm-up first, and timed with this process's CPU per request (client,
// gateway, services and database when they run here), which moves less with the machine's load than
// latency does. --profile writes a CPU profile of the timed requests only, not of the seed.
import { writeFileSync } from 'node:fs';
import { percentile } from './args.js';

export interface TimedCase {
  name: string;
  path: string;
}

export interface TimedRow {
  name: string;
  p50: number;
  p95: number;
  min: number;
  max: number;
  cpu: number;
  bytes: number;
  /** What the case's answer held (rows matched, counts), from `describe`: shows the timing measured real work. */
  matched: string;
}

export interface TimingOptions {
  baseUrl: string;
  /** Headers of each request (called per request: signed identity headers are fresh each time). */
  headers: () => Record<string, string>;
  warmup: number;
  reps: number;
  profileFile?: string;
  /** Reads an answer's body; throws when it shows the timing would mean nothing. */
  describe: (text: string) => string;
}

export async function timeCases(cases: readonly TimedCase[], options: TimingOptions): Promise<TimedRow[]> {
  const { baseUrl, headers, warmup, reps, profileFile, describe } = options;
  const inspector = profileFile ? new (await import('node:inspector/promises')).Session() : undefined;
  if (inspector) {
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.start');
  }
  const rows: TimedRow[] = [];
  for (const c of cases) {
    const times: number[] = [];
    let bytes = 0;
    let matched = '';
    let cpuStart = process.cpuUsage();
    for (let r = 0; r < warmup + reps; r++) {
      if (r === warmup) cpuStart = process.cpuUsage();
      const start = performance.now();
      const res = await fetch(`${baseUrl}${c.path}`, { headers: headers() });
      const text = await res.text();
      const ms = performance.now() - start;
      if (res.status !== 200) throw new Error(`${c.path}: ${res.status} ${text.slice(0, 300)}`);
      if (r >= warmup) times.push(ms);
      bytes = text.length;
      matched = describe(text);
    }
    const cpu = process.cpuUsage(cpuStart);
    times.sort((a, b) => a - b);
    rows.push({
      name: c.name,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      min: times[0],
      max: times[times.length - 1],
      cpu: (cpu.user + cpu.system) / 1000 / Math.max(1, reps),
      bytes,
      matched,
    });
  }
  if (inspector && profileFile) {
    const { profile } = await inspector.post('Profiler.stop');
    writeFileSync(profileFile, JSON.stringify(profile));
    inspector.disconnect();
  }
  return rows;
}
