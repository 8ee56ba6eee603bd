// CI smoke of the load journeys (issue 20): every journey of journeys/journeys.js, the same definitions k6
// runs against a deployment, run twice by two visitors against the whole shop from the local runner,
// with the Node runner. Fails on any failed check or unreached step, never on speed. Needs the built shop
// (npm test builds first). Also: the definitions' invariants the k6 script relies on.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testModeCards } from '@shop/contracts';
import { DEV_ADMIN, startStack, type Stack } from '@shop/local';
import { fill, judge, lookup } from '../journeys/engine.js';
import { journeys, thresholds, TEST_MODE_CARD_SUCCEEDS } from '../journeys/journeys.js';
import { missedLatencyGoals, runJourneys } from '../src/journeys-run.js';

const k6Script = fileURLToPath(new URL('../k6/journeys.js', import.meta.url));

describe('journey definitions (one source for k6 and the Node runner)', () => {
  it('cover the journeys issue 20 asks for', () => {
    expect(journeys.map((j) => j.name)).toEqual([
      'browse',
      'quote-with-upload',
      'tracking',
      'admin-dashboard',
      'test-mode-payment',
    ]);
    expect(journeys.find((j) => j.name === 'quote-with-upload')!.steps[0].multipart).toBeDefined();
  });

  it("use the contracts' test-mode card", () => {
    expect(TEST_MODE_CARD_SUCCEEDS).toBe(testModeCards.succeeds);
  });

  it('name only steps that exist in their thresholds', () => {
    const names = journeys.flatMap((j) => j.steps.map((s) => `${j.name}/${s.name}`));
    for (const metric of Object.keys(thresholds)) {
      const step = /\{name:(.+)\}/.exec(metric)?.[1];
      if (step) expect(names).toContain(step);
    }
  });

  it('fill variables (whole values keep their type) and refuse a missing one', () => {
    expect(fill({ files: ['{{f}}'], to: 'a-{{u}}@x' }, { f: { url: '/x' }, u: 7 })).toEqual({
      files: [{ url: '/x' }],
      to: 'a-7@x',
    });
    expect(() => fill('/api/orders/{{orderId}}', {})).toThrow('journey variable "orderId" is not set');
    expect(lookup({ files: [{ url: '/u' }] }, 'files.0.url')).toBe('/u');
  });

  it('judge a wrong status, a missing field and a body that is not JSON as failures', () => {
    const step = {
      name: 's',
      method: 'GET' as const,
      path: '/',
      expect: { status: [200], json: ['order.id'] },
      save: { id: 'order.id' },
    };
    expect(judge(step, { status: 200, body: '{"order":{"id":"o1"}}' })).toEqual({ failures: [], saved: { id: 'o1' } });
    expect(judge(step, { status: 503, body: 'down' }).failures[0]).toMatch(/^status 503, expected 200/);
    expect(judge(step, { status: 200, body: '{"order":{}}' }).failures).toContain('the answer has no order.id');
    expect(judge(step, { status: 200, body: '<html>' }).failures[0]).toMatch(/not JSON/);
  });

  it('k6 script is valid JavaScript importing the shared definitions', async () => {
    await expect(promisify(execFile)(process.execPath, ['--check', k6Script])).resolves.toBeDefined();
  });

  it('latency goals are read from the k6 thresholds', () => {
    const row = (step: string, p99: number) => ({ step, requests: 10, failed: 0, p50: 1, p99, errors: [] });
    expect(missedLatencyGoals([row('tracking/track', 12)])).toEqual([]);
    expect(missedLatencyGoals([row('tracking/track', 45)])).toEqual(['tracking/track: p99 45.0 ms, goal under 30 ms']);
  });
});

describe('journeys against the whole shop (CI smoke: errors fail, speed does not)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      quiet: true,
      readyTimeoutMs: 90_000,
      env: { ...process.env, RATE_LIMIT_MAX: '100000', LOG_LEVEL: 'warn' },
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('runs every journey twice with two visitors without a failed check', async () => {
    const summary = await runJourneys({
      url: stack.url,
      credentials: { adminEmail: DEV_ADMIN.email, adminPassword: DEV_ADMIN.password },
      vus: 2,
      iterations: 1,
    });
    const report = summary
      .map((r) => `${r.step}: ${r.requests} requests, ${r.failed} failed ${r.errors.join(' | ')}`)
      .join('\n');
    for (const row of summary) {
      expect(row.failed, report).toBe(0);
      expect(row.requests, report).toBe(2);
    }
  }, 60_000);
});
