// The fault suite's short version (issue 21): the whole shop from the local runner under a steady load,
// and three faults: SIGKILL of the orders service, of nats-server and of the embedded MongoDB. The runner
// restarts each by itself; every call answered 2xx must have left exactly one order, payment or message,
// with its events and emails delivered, and the shop must answer again by itself.
// Needs the built shop (npm test builds first). The full suite: `npm run faults`.
import { describe, expect, it } from 'vitest';
import { SHORT_FAULTS, resultsTable, runFaultSuite } from '../src/faults/suite.js';

describe('fault tolerance under load (short version of npm run faults)', () => {
  it('loses nothing and duplicates nothing when orders, NATS and MongoDB are killed, and comes back by itself', async () => {
    const result = await runFaultSuite({ faults: SHORT_FAULTS, steadyMs: 2_000, settleMs: 30_000, log: () => {} });
    const table = resultsTable(result.rows);
    expect(result.rows.map((row) => row.fault)).toEqual(SHORT_FAULTS.map((fault) => fault.name));
    for (const row of result.rows) {
      expect(row.problems, `${row.fault}\n${table}`).toEqual([]);
      expect(row.answered2xx, row.fault).toBeGreaterThan(0);
      // Back by itself (the runner restarts it): recoveryMs is null when the shop did not answer within 60 s.
      // The 5 s goal is a measurement of `npm run faults` (RESULTS.md), not a timing assertion here.
      expect(row.recoveryMs, `${row.fault}\n${table}`).not.toBeNull();
      // A quick, clear answer during the outage, never a hang past the gateway's 15 s upstream timeout: at
      // worst its 504 at that timeout, plus up to 2 s for a loaded 2-core CI machine to deliver it (one came
      // at 15.6 s). A hang shows as the client's own 20 s timeout (CLIENT_TIMEOUT_MS), above this bound.
      expect(row.longestAttemptMs, `${row.fault}\n${table}`).toBeLessThan(17_000);
    }
  }, 240_000);
});
