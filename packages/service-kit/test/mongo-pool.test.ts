// A service's MongoDB connection pool: open from the start and quick to grow under a burst, unless the
// operator's MONGO_URL says otherwise.
import { expect, it } from 'vitest';
import { connectionPoolOptions } from '../src/mongo.js';

it('keeps a few connections open and opens 8 at a time, unless MONGO_URL sets either', () => {
  expect(connectionPoolOptions('mongodb://127.0.0.1:27017/?replicaSet=rs0')).toEqual({
    minPoolSize: 4,
    maxConnecting: 8,
  });
  expect(connectionPoolOptions('mongodb://db:27017')).toEqual({ minPoolSize: 4, maxConnecting: 8 });
  expect(connectionPoolOptions('mongodb://a:1,b:2/?replicaSet=rs0&minPoolSize=0')).toEqual({ maxConnecting: 8 });
  expect(connectionPoolOptions('mongodb+srv://cluster.example/?maxconnecting=2&w=majority')).toEqual({
    minPoolSize: 4,
  });
});
