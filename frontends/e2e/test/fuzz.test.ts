// Malformed bodies against every public POST endpoint of the running shop: wrong types, nulls, missing
// fields, 100 KB strings, deep nesting, operator objects ({"$ne": null}), __proto__ / constructor keys,
// invalid UTF-8, wrong content types and broken multipart. Not one answer may be a 5xx, none may hang,
// and the shop must still serve an order placed before the storm.
//
// The endpoints come from the gateway's access table (ACCESS_RULES): every public row that allows POST,
// concrete rows as they are (a sample id in `:params`), `/**` rows expanded with the POST operations the
// services document (/api/docs), plus documented POST operations no rule covers (public by default, like
// /api/upload). A public POST row that ends up with no endpoint fails the test, so rows added later are
// fuzzed without editing this file.
import http from 'node:http';
import { describe, expect, inject, it } from 'vitest';
// The gateway's own table, read from its source (the e2e package does not depend on the gateway).
import { ACCESS_RULES, accessRuleFor, type AccessRule } from '../../../gateway/src/admin-routes.js';

const baseUrl = inject('baseUrl');

/** Per answer: no hang means an answer within this time. */
const ANSWER_TIMEOUT_MS = 15_000;
const PARALLEL = 6;
const SAMPLE_TOKEN = 'fuzz-sample-token-0123456789';

interface Sent {
  contentType?: string;
  body: Buffer;
  label: string;
}

interface Answer {
  endpoint: string;
  label: string;
  status: number;
  error?: string;
}

/** One POST from a given loopback address (each endpoint its own, so no limit of 127.0.0.1 is spent). */
function post(path: string, sent: Sent, localAddress: string): Promise<Answer> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = {
      origin: baseUrl,
      'content-length': sent.body.length,
      accept: 'application/json',
    };
    if (sent.contentType !== undefined) headers['content-type'] = sent.contentType;
    const req = http.request(url, { method: 'POST', headers, localAddress, agent: false });
    const timer = setTimeout(
      () => req.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)),
      ANSWER_TIMEOUT_MS,
    );
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ endpoint: path, label: sent.label, status: res.statusCode ?? 0 });
      });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      resolve({ endpoint: path, label: sent.label, status: 0, error: err.message });
    });
    req.end(sent.body);
  });
}

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  minimum?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
};
type OpenApi = {
  paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

/** The schema behind a $ref. */
function resolved(schema: JsonSchema | undefined, doc: OpenApi): JsonSchema | undefined {
  return schema?.$ref ? doc.components?.schemas?.[schema.$ref.split('/').pop()!] : schema;
}

/** A plausible value for a schema: the base each malformed body changes in one place. */
function plausible(schema: JsonSchema | undefined, doc: OpenApi, depth = 0): unknown {
  if (!schema || depth > 6) return 'x';
  if (schema.$ref) return plausible(doc.components?.schemas?.[schema.$ref.split('/').pop()!], doc, depth + 1);
  const choice = schema.anyOf?.[0] ?? schema.oneOf?.[0] ?? schema.allOf?.[0];
  if (choice) return plausible(choice, doc, depth + 1);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([k, v]) => [k, plausible(v, doc, depth + 1)]),
      );
    case 'array':
      return [plausible(schema.items, doc, depth + 1)];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'string':
      if (schema.format === 'email') return 'fuzz@fuzz.example';
      return 'fuzz'.padEnd(schema.minLength ?? 4, 'z');
    default:
      return 'x';
  }
}

const json = (label: string, value: unknown, contentType = 'application/json'): Sent => ({
  label,
  contentType,
  body: Buffer.from(JSON.stringify(value)),
});
const raw = (label: string, body: string | Buffer, contentType?: string): Sent => ({
  label,
  contentType,
  body: Buffer.isBuffer(body) ? body : Buffer.from(body),
});

function deep(levels: number, leaf: unknown = 'x'): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

const hundredKb = 'A'.repeat(100 * 1024);
const badValues: [string, unknown][] = [
  ['null', null],
  ['number', 12345],
  ['negative', -1],
  ['float', 1.5e308],
  ['true', true],
  ['empty string', ''],
  ['array', ['a', 'b']],
  ['object', { a: 1 }],
  ['100 KB string', hundredKb],
  ['$ne operator', { $ne: null }],
  ['$gt operator', { $gt: '' }],
  ['$where operator', { $where: 'sleep(1000)' }],
  ['deep nesting', deep(200)],
  ['__proto__ object', JSON.parse('{"__proto__":{"isAdmin":true}}')],
];

/** Bodies that do not depend on the endpoint. */
function genericBodies(): Sent[] {
  const boundary = '----fuzzboundary9f2e';
  const part = (name: string, data: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n${data}`;
  const bodies: Sent[] = [
    raw('empty JSON body', '', 'application/json'),
    raw('whitespace JSON body', '   \n ', 'application/json'),
    raw('truncated JSON', '{"email":"a@b.co"', 'application/json'),
    raw('trailing comma', '{"a":1,}', 'application/json'),
    raw('single quotes', "{'a':1}", 'application/json'),
    raw('NaN literal', '{"a":NaN}', 'application/json'),
    raw('bare string', '"just a string"', 'application/json'),
    raw('bare number', '42', 'application/json'),
    raw('bare null', 'null', 'application/json'),
    raw('bare true', 'true', 'application/json'),
    raw('top-level array', '[1,2,3]', 'application/json'),
    raw('array of objects', '[{"email":"a@b.co"}]', 'application/json'),
    raw('__proto__ key', '{"__proto__":{"isAdmin":true}}', 'application/json'),
    raw('constructor key', '{"constructor":{"prototype":{"isAdmin":true}}}', 'application/json'),
    raw('nested __proto__', '{"a":{"b":{"__proto__":{"x":1}}}}', 'application/json'),
    raw('$ne at the top', '{"$ne":null}', 'application/json'),
    raw('$where at the top', '{"$where":"1==1"}', 'application/json'),
    raw('deep array nesting', `${'['.repeat(5000)}${']'.repeat(5000)}`, 'application/json'),
    raw('deep object nesting', JSON.stringify(deep(3000)), 'application/json'),
    raw('100 KB key', `{"${hundredKb}":1}`, 'application/json'),
    raw('100 KB string value', JSON.stringify({ a: hundredKb }), 'application/json'),
    raw(
      'many keys',
      JSON.stringify(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]))),
      'application/json',
    ),
    raw(
      'invalid UTF-8 in a string',
      Buffer.concat([Buffer.from('{"email":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('@x.co"}')]),
      'application/json',
    ),
    raw(
      'invalid UTF-8 as the body',
      Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0xbc]),
      'application/json',
    ),
    raw('lone surrogate escape', '{"a":"\\ud800"}', 'application/json'),
    raw('NUL bytes', '{"a":"\u0000\u0000"}', 'application/json'),
    raw('UTF-16 body declared', Buffer.from('\ufeff{"email":"a@b.co"}', 'utf16le'), 'application/json; charset=utf-16'),
    raw('UTF-16 body undeclared', Buffer.from('\ufeff{"email":"a@b.co"}', 'utf16le'), 'application/json'),
    raw('latin1 charset', '{"a":"b"}', 'application/json; charset=latin1'),
    raw('no content type', '{"a":1}'),
    raw('text/plain', '{"a":1}', 'text/plain'),
    raw('text/html', '<html><body>hi</body></html>', 'text/html'),
    raw('xml', '<?xml version="1.0"?><a>1</a>', 'application/xml'),
    raw('form urlencoded', 'email=a%40b.co&password=x', 'application/x-www-form-urlencoded'),
    raw('octet-stream', Buffer.from([0, 1, 2, 3, 255]), 'application/octet-stream'),
    raw('bogus content type', '{"a":1}', 'this/is;;not=a"type'),
    raw('empty content type', '{"a":1}', ''),
    raw('json with odd parameters', '{"a":1}', 'application/json; boundary=x; charset="utf-8"; q=0.5'),
    raw('vendor json', '{"a":1}', 'application/vnd.api+json'),
    raw('multipart garbage', 'this is not multipart \x00\xff', `multipart/form-data; boundary=${boundary}`),
    raw('multipart without boundary', part('a.png', 'x'), 'multipart/form-data'),
    raw('multipart empty boundary', part('a.png', 'x'), 'multipart/form-data; boundary='),
    raw('multipart part never closed', part('a.png', '\x89PNG\r\n\x1a\n'), `multipart/form-data; boundary=${boundary}`),
    raw(
      'multipart header never ended',
      `--${boundary}\r\nContent-Disposition: form-data; name="files"`,
      `multipart/form-data; boundary=${boundary}`,
    ),
    raw('multipart empty', '', `multipart/form-data; boundary=${boundary}`),
    raw('multipart only the end', `--${boundary}--\r\n`, `multipart/form-data; boundary=${boundary}`),
    raw(
      'multipart __proto__ field',
      `--${boundary}\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\nx\r\n--${boundary}--\r\n`,
      `multipart/form-data; boundary=${boundary}`,
    ),
    raw(
      'multipart JSON field',
      `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\nContent-Type: application/json\r\n\r\n{bad\r\n--${boundary}--\r\n`,
      `multipart/form-data; boundary=${boundary}`,
    ),
    raw(
      'multipart with a huge header',
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${'a'.repeat(20000)}.png"\r\n\r\nx\r\n--${boundary}--\r\n`,
      `multipart/form-data; boundary=${boundary}`,
    ),
    raw('multipart sent as JSON', part('a.png', 'x'), 'application/json'),
    raw('JSON sent as multipart', '{"a":1}', `multipart/form-data; boundary=${boundary}`),
  ];
  return bodies;
}

/** Bodies built from the endpoint's request schema: each field wrong in one way, required fields missing. */
function schemaBodies(schema: JsonSchema | undefined, doc: OpenApi, othersCount: number): Sent[] {
  const base = plausible(schema, doc);
  const obj = base && typeof base === 'object' && !Array.isArray(base) ? (base as Record<string, unknown>) : {};
  const fields = Object.keys(obj).length ? Object.keys(obj) : ['email', 'id', 'name'];
  const bodies: Sent[] = [
    json('all fields null', Object.fromEntries(fields.map((f) => [f, null]))),
    json('empty object', {}),
  ];
  const required = new Set(resolved(schema, doc)?.required ?? fields);
  // Random mixes of the bad values: at least 24, and enough for 110 bodies with the generic ones.
  const schemaSpecific = 2 + fields.length * (badValues.length + 1);
  bodies.push(
    ...randomBodies(fields, Math.max(24, 110 - othersCount - schemaSpecific), fields.join('|').length * 7919),
  );
  for (const field of fields) {
    for (const [name, value] of badValues) bodies.push(json(`${field}: ${name}`, { ...obj, [field]: value }));
    if (!required.has(field)) continue;
    const { [field]: _dropped, ...rest } = obj;
    bodies.push(json(`${field} missing`, rest));
  }
  return bodies;
}

/** A small seeded generator, so a failing body can be sent again. */
function seeded(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Random junk: odd JSON values under the endpoint's own field names, or raw bytes. */
function randomBodies(fields: string[], count: number, seed: number): Sent[] {
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const bodies: Sent[] = [];
  for (let n = 0; n < count; n++) {
    if (n % 4 === 3) {
      bodies.push(
        raw(
          `random bytes #${n}`,
          Buffer.from(Array.from({ length: 1 + Math.floor(random() * 400) }, () => Math.floor(random() * 256))),
          'application/json',
        ),
      );
      continue;
    }
    const body: Record<string, unknown> = {};
    for (const field of fields) if (random() < 0.6) body[field] = pick(badValues)[1];
    body[`extra${n}`] = pick(badValues)[1];
    bodies.push(json(`random mix #${n}`, body));
  }
  return bodies;
}

/** Fills `{param}` / `:param` with the sample order id (any other kind of id is a string too). */
function concrete(path: string, sampleId: string): string {
  return path.replace(/\{[^}]+\}|:[A-Za-z]+/g, (param) => (/token/i.test(param) ? SAMPLE_TOKEN : sampleId));
}

const allowsPost = (rule: AccessRule) => rule.methods === '*' || rule.methods.includes('POST');

async function documentedPosts(): Promise<{ path: string; schema: JsonSchema | undefined; doc: OpenApi }[]> {
  const index = (await (await fetch(`${baseUrl}/api/docs`, { headers: { accept: 'application/json' } })).json()) as {
    services: { document: string }[];
  };
  const found: { path: string; schema: JsonSchema | undefined; doc: OpenApi }[] = [];
  for (const { document } of index.services) {
    const doc = (await (await fetch(`${baseUrl}${document}`)).json()) as OpenApi;
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      const post = item.post;
      if (post) found.push({ path, schema: post.requestBody?.content?.['application/json']?.schema, doc });
    }
  }
  return found;
}

async function placeEarlierOrder(): Promise<{ id: string; orderNumber: string; email: string }> {
  const email = `fuzz.earlier.${Date.now().toString(36)}@example.com`;
  const res = await fetch(`${baseUrl}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({
      customerName: 'Casey Fuzzwell',
      email,
      phone: '555-0142',
      itemType: 'coin',
      designMethod: 'describe',
      description: 'Unit coin placed before the fuzz storm, to be tracked afterwards',
      quantity: 100,
      size: '2',
      shape: 'Round',
      colors: ['Gold'],
      finish: 'antique_gold',
      edge: 'rope',
      features: [],
      files: [],
      shippingAddress: {
        line1: '7 Quartermaster Rd',
        city: 'Killeen',
        state: 'TX',
        postalCode: '76541',
        country: 'US',
      },
      customerCategory: 'general',
    }),
  });
  const text = await res.text();
  expect(res.status, text).toBe(201);
  const order = (JSON.parse(text) as { order: { id: string; orderNumber: string } }).order;
  return { ...order, email };
}

describe('malformed bodies on every public POST endpoint', () => {
  it('get a 4xx (never a 5xx, never a hang), and the shop still serves an earlier order', async () => {
    const started = Date.now();
    const earlier = await placeEarlierOrder();

    // The endpoints: the public POST rows of the access table, expanded with the documented operations.
    const documented = await documentedPosts();
    const endpoints = new Map<string, { schema: JsonSchema | undefined; doc: OpenApi }>();
    for (const op of documented) {
      const path = concrete(op.path, earlier.id);
      if ((accessRuleFor('POST', path)?.access ?? 'public') === 'public')
        endpoints.set(path, { schema: op.schema, doc: op.doc });
    }
    const publicPostRows = ACCESS_RULES.filter((r) => r.access === 'public' && allowsPost(r));
    for (const rule of publicPostRows) {
      // A concrete row is fuzzed even before its service documents it (support and returns are growing).
      if (!rule.pattern.endsWith('/**')) {
        const path = concrete(rule.pattern, earlier.id);
        if (!endpoints.has(path)) endpoints.set(path, { schema: undefined, doc: {} });
      }
    }
    const uncovered = publicPostRows.filter(
      (rule) => ![...endpoints.keys()].some((path) => accessRuleFor('POST', path) === rule),
    );
    expect(
      uncovered.map((r) => r.pattern),
      'public POST rows with no endpoint to fuzz',
    ).toEqual([]);
    expect(endpoints.has('/api/upload')).toBe(true);

    // Every endpoint gets the same generic bodies plus the ones built from its own schema.
    const jobs: { path: string; sent: Sent; address: string }[] = [];
    const perEndpoint = new Map<string, number>();
    [...endpoints.entries()].forEach(([path, { schema, doc }], i) => {
      // Each endpoint its own loopback client address: the per-address limits of the gateway and the
      // services stay untouched for 127.0.0.1, which the other browser tests use.
      const address = `127.0.${100 + Math.floor(i / 200)}.${(i % 200) + 10}`;
      const generic = genericBodies();
      const bodies = [...generic, ...schemaBodies(schema, doc, generic.length)];
      perEndpoint.set(path, bodies.length);
      for (const sent of bodies) jobs.push({ path, sent, address });
    });
    for (const [path, count] of perEndpoint) expect(count, path).toBeGreaterThanOrEqual(100);

    const answers: Answer[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (next < jobs.length) {
          const job = jobs[next++];
          answers.push(await post(job.path, job.sent, job.address));
        }
      }),
    );

    const failures = answers.filter((a) => a.status === 0 || a.status >= 500);
    expect(
      failures.slice(0, 20).map((a) => `${a.endpoint} [${a.label}] -> ${a.status || a.error}`),
      `${failures.length} of ${answers.length} answers were 5xx or none`,
    ).toEqual([]);
    expect(answers.length).toBe(jobs.length);

    // The shop still works: the earlier order is tracked and its payment view served.
    const track = await fetch(`${baseUrl}/api/orders/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl },
      body: JSON.stringify({ orderNumber: earlier.orderNumber, email: earlier.email }),
    });
    const tracked = await track.text();
    expect(track.status, tracked).toBe(200);
    expect(JSON.parse(tracked)).toMatchObject({ success: true, order: { orderNumber: earlier.orderNumber } });
    expect((await fetch(`${baseUrl}/api/orders/${earlier.id}`)).status).toBe(200);
    const health = await fetch(`${baseUrl}/api/health`);
    expect(health.status).toBe(200);

    console.log(
      `fuzz: ${answers.length} malformed bodies on ${endpoints.size} endpoints in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  });
});
