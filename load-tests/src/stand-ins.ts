// The servers the bench measures against, run in their own process so the load generator does not
// share an event loop with them: the bare Fastify baseline and seven stand-in services (what a
// service answers, without its work, so the gateway's own cost is what shows). Prints one JSON line
// with their URLs, then serves until SIGTERM.
import Fastify, { type FastifyInstance } from 'fastify';

export const SERVICES = ['orders', 'payments', 'customers', 'support', 'marketing', 'security', 'email'] as const;
const startedAt = new Date().toISOString();
const readiness = { status: 'ready', checks: { mongo: 'up', nats: 'up' } };

export interface StandIns {
  baseline: string;
  services: Record<string, string>;
}

async function listen(app: FastifyInstance): Promise<string> {
  return app.listen({ host: '127.0.0.1', port: 0 });
}

const apps: FastifyInstance[] = [];

// The baseline answers every measured path itself, as fast as Fastify can.
const baseline = Fastify({ logger: false });
baseline.get('/api/health', async () => ({
  status: 'ready',
  services: Object.fromEntries(SERVICES.map((s) => [s, { ...readiness, latencyMs: 1 }])),
}));
for (const service of SERVICES)
  baseline.get(`/api/${service}/_service`, async () => ({ service, version: '0.1.0', startedAt }));
// Any other path asked with --path: a small JSON answer, so every measured path has a baseline.
baseline.get('/*', async (request) => ({ path: request.url }));
// Answers the whole stack's rows are compared with: the bench records what the real shop answered
// (POST /_bench/answers { path, status, body }) and the baseline then answers POSTs to that path with the
// same status and payload, so both sides send the same bytes.
const recorded = new Map<string, { status: number; body: unknown }>();
baseline.post<{ Body: { path: string; status: number; body: unknown } }>('/_bench/answers', async (request, reply) => {
  const { path, status, body } = request.body;
  if (typeof path !== 'string' || !path.startsWith('/') || !Number.isInteger(status)) {
    return reply.code(400).send({ error: 'send { path: "/...", status: 200, body: {...} }' });
  }
  recorded.set(path, { status, body });
  return { recorded: path };
});
baseline.post('/*', async (request, reply) => {
  const answer = recorded.get(request.url);
  if (!answer) return reply.code(404).send({ error: `no answer recorded for POST ${request.url}` });
  return reply.code(answer.status).send(answer.body);
});
apps.push(baseline);
const result: StandIns = { baseline: await listen(baseline), services: {} };

for (const service of SERVICES) {
  const app = Fastify({ logger: false });
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async () => readiness);
  app.get(`/api/${service}/_service`, async () => ({ service, version: '0.1.0', startedAt }));
  apps.push(app);
  result.services[service] = await listen(app);
}

process.once('SIGTERM', () => {
  void Promise.all(apps.map((a) => a.close())).then(() => process.exit(0));
});
console.log(JSON.stringify(result));
