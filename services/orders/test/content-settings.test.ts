// The site content the orders service enforces (content.changed from marketing): the price list used for
// new quote requests only, and the AI / upload switches refused on the server with a clear 4xx.
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contentMessages,
  createEvent,
  defaultSiteContent,
  type EventData,
  type CreateOrderResponse,
  type Failure,
} from '@shop/contracts';
import type { OrderDoc } from '../src/models/order.js';
import { coinOrder, eventually, postJson, startHarness, type Harness } from './helpers.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

async function publishContentChanged(data: EventData<'content.changed'>) {
  const event = createEvent('content.changed', 'marketing', data);
  const nc = await connect({ servers: h.nats.url });
  try {
    await jetstream(nc).publish('content.changed', JSON.stringify(event), { msgID: event.id });
  } finally {
    await nc.close();
  }
}

const features = (over: Partial<EventData<'content.changed'>['features']> = {}) => ({
  ...defaultSiteContent.features,
  ...over,
});
const changedAt = () => new Date().toISOString();
const storedEstimate = async (orderNumber: string) =>
  ((await h.service.ctx.models.Order.findOne({ orderNumber }).lean()) as unknown as OrderDoc).estimatedTotal;

describe('site content in the orders service', () => {
  it('estimates new quote requests with the content price, never changing a submitted order', async () => {
    const before = await postJson<CreateOrderResponse>(`${h.url}/api/orders`, coinOrder());
    expect(before.status).toBe(201);
    // The catalog price before any change: 25.99 x 50 less 10 % (bulk), whole dollars.
    expect(await storedEstimate(before.body.order.orderNumber)).toBe(1170);

    await publishContentChanged({
      version: 1,
      prices: { coin: 30, patch: 12.99, shirt: 39.99 },
      features: features(),
      changedBy: 'admin:ops@shop.local',
      changedAt: changedAt(),
    });
    const after = await eventually(
      async () => {
        const res = await postJson<CreateOrderResponse>(
          `${h.url}/api/orders`,
          coinOrder({ email: `later-${Date.now()}@example.com` }),
        );
        return storedEstimate(res.body.order.orderNumber);
      },
      (estimate) => estimate === 1350,
    );
    expect(after).toBe(1350);
    expect(await storedEstimate(before.body.order.orderNumber)).toBe(1170);
  });

  it('refuses AI designs and uploads when their switches are off, and ignores an older version', async () => {
    await publishContentChanged({
      version: 2,
      prices: { coin: 30, patch: 12.99, shirt: 39.99 },
      features: features({ aiGenerationEnabled: false, fileUploadEnabled: false }),
      changedBy: 'admin:ops@shop.local',
      changedAt: changedAt(),
    });
    const ai = await eventually(
      () =>
        postJson<Failure>(`${h.url}/api/ai/generate-design`, {
          prompt: 'An eagle over crossed rifles',
          itemType: 'coin',
          style: 'military',
        }),
      (res) => res.status === 403,
    );
    expect(ai.status).toBe(403);
    expect(ai.body.error).toBe(contentMessages.aiDisabled);

    const form = new FormData();
    form.append('files', new Blob(['png'], { type: 'image/png' }), 'logo.png');
    const upload = await fetch(`${h.url}/api/upload`, { method: 'POST', body: form });
    expect(upload.status).toBe(403);
    expect(((await upload.json()) as { error: string }).error).toBe(contentMessages.uploadDisabled);

    // A late, older event changes nothing.
    await publishContentChanged({
      version: 1,
      prices: { coin: 30, patch: 12.99, shirt: 39.99 },
      features: features(),
      changedBy: 'admin:ops@shop.local',
      changedAt: changedAt(),
    });
    await new Promise((r) => setTimeout(r, 1000));
    expect(
      (
        await postJson(`${h.url}/api/ai/generate-design`, {
          prompt: 'An eagle over crossed rifles',
          itemType: 'coin',
          style: 'military',
        })
      ).status,
    ).toBe(403);

    await publishContentChanged({
      version: 3,
      prices: { coin: 30, patch: 12.99, shirt: 39.99 },
      features: features(),
      changedBy: 'admin:ops@shop.local',
      changedAt: changedAt(),
    });
    const back = await eventually(
      () =>
        postJson(`${h.url}/api/ai/generate-design`, {
          prompt: 'An eagle over crossed rifles',
          itemType: 'coin',
          style: 'military',
        }),
      (res) => res.status === 200,
    );
    expect(back.status).toBe(200);
  });
});
