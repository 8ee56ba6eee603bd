// Repeated tracking lookups of one order share one MongoDB read for at most trackedAnswerMaxAgeMs
// (domain/tracking.ts, issue 20): the sharing, the age bound with a clock of the test's, failed reads not
// kept, the size bound; and over HTTP, a status change seen by a tracker once the bound has passed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateOrderResponse, TrackResponse } from '@shop/contracts';
import { adminHeaders } from '@shop/service-kit/testing';
import { RecentTrackedAnswers, trackedAnswerMaxAgeMs, type TrackedAnswer } from '../src/domain/tracking.js';
import { coinOrder, postJson, startHarness, type Harness } from './helpers.js';

/** A read that counts its calls and answers a fresh object each time. */
function countedRead() {
  const calls = { count: 0 };
  const read = async (): Promise<TrackedAnswer> => ({ emailKey: 'a@b.c', json: `{"read":${++calls.count}}` });
  return { calls, read };
}

describe('RecentTrackedAnswers', () => {
  it('shares one read among lookups within the bound, including those made while it runs', async () => {
    let now = 0;
    const recent = new RecentTrackedAnswers(250, 100, () => now);
    const { calls, read } = countedRead();
    const together = await Promise.all([recent.answerFor('CC-1', read), recent.answerFor('CC-1', read)]);
    expect(calls.count).toBe(1);
    expect(together[0]).toBe(together[1]);
    now = 249;
    expect(await recent.answerFor('CC-1', read)).toBe(together[0]);
    expect(calls.count).toBe(1);
    // Another order has its own read.
    await recent.answerFor('CC-2', read);
    expect(calls.count).toBe(2);
  });

  it('reads again once the first read started the bound ago', async () => {
    let now = 1_000;
    const recent = new RecentTrackedAnswers(250, 100, () => now);
    const { calls, read } = countedRead();
    const first = await recent.answerFor('CC-1', read);
    now = 1_250;
    const second = await recent.answerFor('CC-1', read);
    expect(calls.count).toBe(2);
    expect(second?.json).not.toBe(first?.json);
  });

  it('keeps no failed read: the next lookup reads again', async () => {
    const recent = new RecentTrackedAnswers(250, 100, () => 0);
    await expect(recent.answerFor('CC-1', () => Promise.reject(new Error('MongoDB went away')))).rejects.toThrow(
      'MongoDB went away',
    );
    const { calls, read } = countedRead();
    await recent.answerFor('CC-1', read);
    expect(calls.count).toBe(1);
  });

  it('holds at most maxAnswers: a new order number forgets the oldest', async () => {
    const recent = new RecentTrackedAnswers(250, 2, () => 0);
    const { calls, read } = countedRead();
    await recent.answerFor('CC-1', read);
    await recent.answerFor('CC-2', read);
    await recent.answerFor('CC-3', read);
    expect(calls.count).toBe(3);
    await recent.answerFor('CC-3', read);
    await recent.answerFor('CC-2', read);
    expect(calls.count).toBe(3);
    await recent.answerFor('CC-1', read);
    expect(calls.count).toBe(4);
  });
});

describe('POST /api/orders/track with repeated lookups', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('shows a status change once trackedAnswerMaxAgeMs has passed, and checks the email on every lookup', async () => {
    const created = await postJson<CreateOrderResponse>(`${h.url}/api/orders`, coinOrder());
    expect(created.status).toBe(201);
    const { id, orderNumber } = created.body.order;
    const track = (email = 'jane.doe@example.com') =>
      postJson<TrackResponse>(`${h.url}/api/orders/track`, { orderNumber, email });

    const before = await track();
    expect(before.status).toBe(200);
    expect(before.body.order.status).toBe('pending_quote');
    // The answer just read is held; a wrong email still gets the not-found answer from it.
    expect((await track('someone.else@example.com')).status).toBe(404);

    const quoted = await postJson(
      `${h.url}/api/orders/${id}/generate-quote`,
      { quoteAmount: 1000 },
      adminHeaders('boss@shop.test'),
    );
    expect(quoted.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, trackedAnswerMaxAgeMs + 10));
    const after = await track();
    expect(after.status).toBe(200);
    expect(after.body.order.status).toBe('quote_sent');
    expect(after.body.order.finalAmount).toBeGreaterThan(0);
    expect(after.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});
