// The minimal @fastify/http-proxy peer of the bench: a bare Fastify server whose only job is to proxy
// /api/orders/* to the stand-in orders service (UPSTREAM), in its own process. What a gateway built on
// the same proxy costs with nothing else on. Prints its URL as one JSON line, then serves until SIGTERM.
import Fastify from 'fastify';
import proxy from '@fastify/http-proxy';

const upstream = process.env.UPSTREAM;
if (!upstream) throw new Error('UPSTREAM (the stand-in orders service URL) is required');
const app = Fastify({ logger: false });
await app.register(proxy, { upstream, prefix: '/api/orders', rewritePrefix: '/api/orders' });
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
console.log(JSON.stringify({ url }));
