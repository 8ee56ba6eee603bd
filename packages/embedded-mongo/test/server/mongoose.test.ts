// Unmodified mongoose 9 against the embedded server in replica-set mode: the way every shop service uses it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose, { Schema, type Connection } from 'mongoose';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../src/index.js';

let mongo: EmbeddedMongo;
let conn: Connection;

const customerSchema = new Schema({
  email: { type: String, required: true, unique: true, lowercase: true },
  name: { type: String, required: true, minlength: 2 },
  tier: { type: String, enum: ['standard', 'unit'], default: 'standard' },
});

const productSchema = new Schema({
  sku: { type: String, required: true, unique: true },
  kind: { type: String, enum: ['coin', 'patch', 'shirt'], required: true },
  priceCents: { type: Number, required: true, min: 0 },
  stock: { type: Number, default: 0 },
});
productSchema.index({ kind: 1, priceCents: -1 });

const orderSchema = new Schema(
  {
    customer: { type: Schema.Types.ObjectId, ref: 'Customer', required: true },
    items: [{ product: { type: Schema.Types.ObjectId, ref: 'Product' }, qty: Number }],
    totalCents: Number,
    status: { type: String, default: 'placed' },
  },
  { timestamps: true },
);

const outboxSchema = new Schema({ type: String, payload: Schema.Types.Mixed });

beforeAll(async () => {
  mongo = await startEmbeddedMongo({ port: 0, replSet: 'rs0' });
  conn = await mongoose
    .createConnection(mongo.uri, { dbName: 'shop_orders', serverSelectionTimeoutMS: 5000 })
    .asPromise();
  conn.model('Customer', customerSchema);
  conn.model('Product', productSchema);
  conn.model('Order', orderSchema);
  conn.model('Outbox', outboxSchema);
  await Promise.all(Object.values(conn.models).map((model) => model.init()));
});

afterAll(async () => {
  await conn?.close();
  await mongo?.stop();
});

const Customer = () => conn.model('Customer');
const Product = () => conn.model('Product');
const Order = () => conn.model('Order');
const Outbox = () => conn.model('Outbox');

describe('documents', () => {
  it('saves, finds, updates and deletes', async () => {
    const eagle = await Product().create({ sku: 'COIN-EAGLE', kind: 'coin', priceCents: 1299, stock: 10 });
    await Product().create([
      { sku: 'PATCH-ANCHOR', kind: 'patch', priceCents: 599 },
      { sku: 'SHIRT-OD', kind: 'shirt', priceCents: 2499, stock: 3 },
    ]);
    const found = await Product().findById(eagle._id);
    expect(found!.get('sku')).toBe('COIN-EAGLE');

    const updated = await Product().updateOne({ sku: 'PATCH-ANCHOR' }, { $set: { stock: 40 } });
    expect(updated).toMatchObject({ acknowledged: true, matchedCount: 1, modifiedCount: 1 });

    const after = await Product().findOneAndUpdate(
      { sku: 'COIN-EAGLE' },
      { $inc: { stock: -2 } },
      { returnDocument: 'after' },
    );
    expect(after!.get('stock')).toBe(8);

    found!.set('priceCents', 1199);
    await found!.save();
    expect((await Product().findOne({ sku: 'COIN-EAGLE' }).lean<{ priceCents: number }>())!.priceCents).toBe(1199);

    const lean = await Product()
      .find({ priceCents: { $gte: 1000 } })
      .sort({ priceCents: 1 })
      .select('sku -_id')
      .lean();
    expect(lean).toEqual([{ sku: 'COIN-EAGLE' }, { sku: 'SHIRT-OD' }]);

    expect(await Product().countDocuments({ kind: { $in: ['coin', 'shirt'] } })).toBe(2);
    expect((await Product().distinct('kind')).sort()).toEqual(['coin', 'patch', 'shirt']);

    const deleted = await Product().deleteMany({ stock: { $lt: 5 } });
    expect(deleted.deletedCount).toBe(1);
    expect(await Product().countDocuments()).toBe(2);
  });

  it('leaves validation to mongoose', async () => {
    const error = await Product()
      .create({ sku: 'X', kind: 'mug', priceCents: -1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(mongoose.Error.ValidationError);
    expect(Object.keys((error as mongoose.Error.ValidationError).errors).sort()).toEqual(['kind', 'priceCents']);
  });

  it('reports a duplicate key as MongoServerError 11000 with keyValue', async () => {
    await Customer().create({ email: 'ada@example.com', name: 'Ada' });
    const error = await Customer()
      .create({ email: 'ADA@example.com', name: 'Ada again' })
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe('MongoServerError');
    expect(error).toMatchObject({ code: 11000, keyValue: { email: 'ada@example.com' }, keyPattern: { email: 1 } });
    expect((error as Error).message).toContain('E11000 duplicate key error');
  });

  it('populates references and aggregates', async () => {
    const buyer = await Customer().create({ email: 'grace@example.com', name: 'Grace' });
    const coin = await Product().create({ sku: 'COIN-RANGER', kind: 'coin', priceCents: 1500 });
    const patch = await Product().create({ sku: 'PATCH-RANGER', kind: 'patch', priceCents: 500 });
    await Order().create({
      customer: buyer._id,
      items: [
        { product: coin._id, qty: 2 },
        { product: patch._id, qty: 1 },
      ],
      totalCents: 3500,
    });
    await Order().create({ customer: buyer._id, items: [{ product: patch._id, qty: 4 }], totalCents: 2000 });

    const order = await Order().findOne({ totalCents: 3500 }).populate('customer').populate('items.product');
    expect(order!.get('customer').name).toBe('Grace');
    expect(order!.get('items')[0].product.sku).toBe('COIN-RANGER');
    expect(order!.get('createdAt')).toBeInstanceOf(Date);

    const spend = await Order().aggregate([
      { $match: { customer: buyer._id } },
      { $group: { _id: '$customer', total: { $sum: '$totalCents' }, orders: { $sum: 1 } } },
    ]);
    expect(spend).toEqual([{ _id: buyer._id, total: 5500, orders: 2 }]);
  });

  it('syncs indexes with the schema', async () => {
    await Product().collection.createIndex({ legacy: 1 });
    const dropped = await Product().syncIndexes();
    expect(dropped).toEqual(['legacy_1']);
    const names = (await Product().listIndexes()).map((index: { name: string }) => index.name).sort();
    expect(names).toEqual(['_id_', 'kind_1_priceCents_-1', 'sku_1']);
  });
});

describe('transactions', () => {
  it('withTransaction commits the document and its outbox event together', async () => {
    const session = await conn.startSession();
    try {
      await session.withTransaction(async () => {
        const [customer] = await Customer().create([{ email: 'tx@example.com', name: 'Tx Buyer' }], { session });
        await Outbox().create([{ type: 'customer.registered', payload: { id: customer._id } }], { session });
        // Inside the transaction the write is visible; outside it is not yet.
        expect(await Customer().countDocuments({ email: 'tx@example.com' }).session(session)).toBe(1);
        expect(await Customer().countDocuments({ email: 'tx@example.com' })).toBe(0);
      });
    } finally {
      await session.endSession();
    }
    expect(await Customer().countDocuments({ email: 'tx@example.com' })).toBe(1);
    expect(await Outbox().countDocuments({ type: 'customer.registered' })).toBe(1);
  });

  it('withTransaction aborts everything when the callback throws', async () => {
    const session = await conn.startSession();
    const error = await session
      .withTransaction(async () => {
        await Customer().create([{ email: 'rollback@example.com', name: 'Roll Back' }], { session });
        await Outbox().create([{ type: 'customer.rolledback' }], { session });
        throw new Error('payment declined');
      })
      .catch((e: unknown) => e)
      .finally(() => session.endSession());
    expect((error as Error).message).toBe('payment declined');
    expect(await Customer().countDocuments({ email: 'rollback@example.com' })).toBe(0);
    expect(await Outbox().countDocuments({ type: 'customer.rolledback' })).toBe(0);
  });

  it('a duplicate key inside a transaction aborts all of it', async () => {
    await Customer().create({ email: 'taken@example.com', name: 'Taken' });
    const session = await conn.startSession();
    const error = await session
      .withTransaction(async () => {
        await Outbox().create([{ type: 'should.not.exist' }], { session });
        await Customer().create([{ email: 'taken@example.com', name: 'Dup' }], { session });
      })
      .catch((e: unknown) => e)
      .finally(() => session.endSession());
    expect(error).toMatchObject({ code: 11000 });
    expect(await Outbox().countDocuments({ type: 'should.not.exist' })).toBe(0);
  });
});
