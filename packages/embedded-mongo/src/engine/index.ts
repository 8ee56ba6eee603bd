// The storage engine of @shop/embedded-mongo: createEngine() and the seam types the server and the
// durability layer use.
export { createEngine } from './engine.js';
export type { CreateEngineOptions, EmbeddedEngine, QueryStats } from './engine.js';
export * from './types.js';
