// k6 journeys against a real deployment: the same journey definitions and checks as the Node runner
// (../journeys/journeys.js and ../journeys/engine.js), one scenario per journey, thresholds from issue 20's
// goals. Run:
//   k6 run -e BASE_URL=https://shop.example.com -e ADMIN_EMAIL=... -e ADMIN_PASSWORD=... k6/journeys.js
//   k6 run -e BASE_URL=http://127.0.0.1:8080 -e VUS=10 -e DURATION=2m -e JOURNEYS=browse,tracking k6/journeys.js
import http from 'k6/http';
import { check, fail } from 'k6';
import encoding from 'k6/encoding';
import exec from 'k6/execution';
import { journeys, thresholds } from '../journeys/journeys.js';
import { judge, prepare, stepName, uniqueId } from '../journeys/engine.js';

const BASE_URL = (__ENV.BASE_URL || 'http://127.0.0.1:8080').replace(/\/+$/, '');
const VUS = Number(__ENV.VUS || 5);
const DURATION = __ENV.DURATION || '1m';
const SELECTED = __ENV.JOURNEYS
  ? __ENV.JOURNEYS.split(',').map((name) => name.trim())
  : journeys.map((journey) => journey.name);
// The local runner's development admin unless the deployment's own is given.
const ADMIN_EMAIL = __ENV.ADMIN_EMAIL || 'admin@shop.local';
const ADMIN_PASSWORD = __ENV.ADMIN_PASSWORD || 'Shop-Local-Dev-2026!';

const scenarios = {};
for (const journey of journeys) {
  if (SELECTED.indexOf(journey.name) === -1) continue;
  scenarios[journey.name] = {
    executor: 'constant-vus',
    vus: VUS,
    duration: DURATION,
    exec: 'run',
    env: { JOURNEY: journey.name },
  };
}
if (Object.keys(scenarios).length === 0)
  throw new Error(`JOURNEYS names none of: ${journeys.map((j) => j.name).join(', ')}`);

export const options = { scenarios, thresholds };

function send(request, tag) {
  const params = { headers: request.headers, tags: { name: tag }, redirects: 0 };
  if (request.multipart) {
    const body = {};
    for (const name of Object.keys(request.multipart.fields || {})) body[name] = request.multipart.fields[name];
    // k6 sends an object body with http.file values as multipart/form-data (one file per field here).
    for (const file of request.multipart.files)
      body[file.field] = http.file(encoding.b64decode(file.base64), file.filename, file.contentType);
    return http.request(request.method, request.url, body, params);
  }
  const body = request.json === undefined ? null : JSON.stringify(request.json);
  return http.request(request.method, request.url, body, params);
}

export function run() {
  const journey = journeys.find((j) => j.name === __ENV.JOURNEY);
  if (!journey) fail(`unknown journey ${__ENV.JOURNEY}`);
  const vars = {
    baseUrl: BASE_URL,
    unique: uniqueId(`k6-${exec.vu.idInTest}`, exec.scenario.iterationInTest),
    adminEmail: ADMIN_EMAIL,
    adminPassword: ADMIN_PASSWORD,
  };
  // Each iteration is a new visitor: k6 keeps cookies per VU, so drop the admin session between them.
  http.cookieJar().clear(BASE_URL);
  for (const step of journey.steps) {
    const name = stepName(journey, step);
    const response = send(prepare(step, vars), name);
    const verdict = judge(step, { status: response.status, body: response.body });
    const checks = {};
    checks[`${name} passed`] = () => verdict.failures.length === 0;
    check(response, checks);
    if (verdict.failures.length) {
      console.warn(`${name}: ${verdict.failures.join('; ')}`);
      return;
    }
    Object.assign(vars, verdict.saved);
  }
}
