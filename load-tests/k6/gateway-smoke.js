// k6 smoke test of a running shop through its gateway: the aggregated health check and a read that
// crosses the gateway into a service. Run: k6 run -e BASE_URL=https://shop.example.com k6/gateway-smoke.js
import http from 'k6/http';
import { check, sleep } from 'k6';

const BASE_URL = (__ENV.BASE_URL || 'http://127.0.0.1:8080').replace(/\/+$/, '');
const SERVICES = ['orders', 'payments', 'customers', 'support', 'marketing', 'security', 'email'];

export const options = {
  scenarios: {
    smoke: {
      executor: 'constant-vus',
      vus: Number(__ENV.VUS || 10),
      duration: __ENV.DURATION || '1m',
    },
  },
  thresholds: {
    // Fewer than 1% of requests may fail (network errors or 4xx/5xx).
    http_req_failed: ['rate<0.01'],
    // /api/health asks all seven services in parallel: allow it more than a single read.
    'http_req_duration{name:health}': ['p(95)<500', 'p(99)<1000'],
    'http_req_duration{name:service-info}': ['p(95)<250', 'p(99)<500'],
    checks: ['rate>0.99'],
  },
};

export default function () {
  const health = http.get(`${BASE_URL}/api/health`, { tags: { name: 'health' } });
  check(health, {
    'health answers 200': (r) => r.status === 200,
    'every service is ready': (r) => r.status === 200 && r.json('status') === 'ready',
  });

  // Each service's public info route (GET /api/<service>/_service), one service per iteration.
  const service = SERVICES[__ITER % SERVICES.length];
  const info = http.get(`${BASE_URL}/api/${service}/_service`, { tags: { name: 'service-info' } });
  check(info, {
    'service info answers 200': (r) => r.status === 200,
    'the right service answered': (r) => r.status === 200 && r.json('service') === service,
    'the gateway returns a request id': (r) => Boolean(r.headers['X-Request-Id']),
  });

  sleep(1);
}
