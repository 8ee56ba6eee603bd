// The floor of the proxied read for a Node gateway (gateway-profile.ts --floor): Node's http server and
// the gateway's own forwarding library (undici, one keep-alive Pool, dispatch with a raw handler, the
// answer written with its head in one go, as gateway/src/forward.ts does) and nothing else: no Fastify,
// no request id, security headers, rate limit, admin check, request log, tracing or signed identity.
// What the gateway costs above this is its framework and its features; this itself is what Node's
// sockets and HTTP parsing cost on the machine. Proxies every request to UPSTREAM; prints its URL as one
// JSON line, then serves until SIGTERM.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';

// undici as the gateway resolves it (the gateway's dependency, the same version it forwards with).
const { Pool } = createRequire(new URL('../../gateway/package.json', import.meta.url))(
  'undici',
) as typeof import('undici');

const upstream = process.env.UPSTREAM;
if (!upstream) throw new Error('UPSTREAM (the stand-in orders service URL) is required');
const pool = new Pool(upstream);
const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host']);

const server = createServer((req, res) => {
  const headers: string[] = [];
  for (const name in req.headers) {
    const value = req.headers[name];
    if (typeof value === 'string' && !hopByHop.has(name)) headers.push(name, value);
  }
  let status = 0;
  const answerHeaders: unknown[] = [];
  const chunks: Buffer[] = [];
  const handler: Dispatcher.DispatchHandler = {
    onRequestStart() {},
    onResponseStart(_controller, statusCode, answer) {
      status = statusCode;
      for (const name in answer) if (!hopByHop.has(name)) answerHeaders.push(name, answer[name]);
    },
    onResponseData(_controller, chunk) {
      chunks.push(chunk);
    },
    onResponseEnd() {
      res.writeHead(status, answerHeaders as string[]);
      res.end(Buffer.concat(chunks).toString('latin1'), 'latin1');
    },
    onResponseError() {
      res.statusCode = 502;
      res.end();
    },
  };
  pool.dispatch({ path: req.url ?? '/', method: req.method as Dispatcher.HttpMethod, headers, body: null }, handler);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(JSON.stringify({ url: `http://127.0.0.1:${address.port}` }));
});
process.once('SIGTERM', () => {
  server.close();
  void pool.close().then(() => process.exit(0));
});
