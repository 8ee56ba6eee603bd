import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { startMongo, type StartedMongo } from '../src/index.js';

describe('startMongo', () => {
  let mongo: StartedMongo;
  beforeAll(async () => {
    mongo = await startMongo();
  });
  afterAll(async () => {
    await mongo?.stop();
  });

  it('is a replica set rs0 on a free port that mongoose can run transactions on', async () => {
    expect(mongo.uri).toBe(`mongodb://127.0.0.1:${mongo.port}/?replicaSet=rs0`);
    const conn = await mongoose.createConnection(mongo.uri, { dbName: 'shop_test' }).asPromise();
    try {
      const Event = conn.model('Event', new mongoose.Schema({ type: String }));
      await conn.transaction(async (session) => {
        await Event.create([{ type: 'order.placed' }], { session });
      });
      expect(await Event.countDocuments()).toBe(1);
    } finally {
      await conn.close();
    }
  });
});
