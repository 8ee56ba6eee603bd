// Checks the Helm chart against the code, without helm or a cluster: every service folder has values,
// ports and probe paths match what the code serves, every environment variable the code reads is set
// (plainly or through a Secret reference), secrets are never inlined, and the templates only use
// values and named templates that exist.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { defaultGatewayPort, defaultServicePorts, serviceNames } from '@shop/contracts';
import { describe, expect, it } from 'vitest';
import { CHART, ROOT, chartMeta as chart, readValues, type SecretRef } from './helm.ts';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

const values = readValues();
const entries = values.services;
const templateFiles = readdirSync(join(CHART, 'templates')).filter((file) => /\.(ya?ml|tpl|txt)$/.test(file));
const templates = Object.fromEntries(
  templateFiles.map((file) => [file, readFileSync(join(CHART, 'templates', file), 'utf8')]),
);
const allTemplates = Object.values(templates).join('\n');

function filesUnder(dir: string, extension = '.ts'): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path, extension) : path.endsWith(extension) ? [path] : [];
  });
}

/** Names read as a literal `process.env.NAME` in these source folders. */
function envVarsReadIn(...dirs: string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of dirs.flatMap((dir) => filesUnder(join(ROOT, dir)))) {
    // Comments may name variables in prose ("read as process.env.NAME"); only code counts.
    const code = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/(^|\s)\/\/.*$/gm, '$1');
    for (const match of code.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)) {
      if (!found.has(match[1])) found.set(match[1], relative(ROOT, file));
    }
  }
  return found;
}

const serviceFolders = readdirSync(join(ROOT, 'services')).filter((name) =>
  existsSync(join(ROOT, 'services', name, 'package.json')),
);
const dependsOnKit = (dir: string) =>
  Object.keys(
    (JSON.parse(read(`${dir}/package.json`)) as { dependencies?: Record<string, string> }).dependencies ?? {},
  ).includes('@shop/service-kit');

/** What each part reads: its own sources plus service-kit's when it is built on it. */
const parts = [
  ...serviceFolders.map((name) => ({ name, dir: `services/${name}` })),
  { name: 'gateway', dir: 'gateway' },
].map((part) => ({
  ...part,
  reads: envVarsReadIn(`${part.dir}/src`, ...(dependsOnKit(part.dir) ? ['packages/service-kit/src'] : [])),
}));

/** Set in every container by the image or Kubernetes itself. */
const PROVIDED_BY_THE_PLATFORM = ['PATH', 'HOME', 'HOSTNAME'];

/** Every variable an entry gets: PORT from the template, shared and own settings, secret references. */
function providedTo(name: string): Set<string> {
  const entry = entries[name];
  return new Set([
    ...PROVIDED_BY_THE_PLATFORM,
    'PORT',
    ...Object.keys(values.global.env),
    ...Object.keys(values.global.secretEnv),
    ...Object.keys(entry.env ?? {}),
    ...Object.keys(entry.secretEnv ?? {}),
  ]);
}

/** `{{ .Release.Name }}` is the only template used inside values; render it as helm's tpl would. */
const tplValue = (text: string, release = 'shop') => text.replaceAll('{{ .Release.Name }}', release);

describe('the shop chart', () => {
  it('declares the official NATS chart with JetStream and a MongoDB replica set', () => {
    const deps = Object.fromEntries(chart.dependencies.map((dep) => [dep.name, dep]));
    expect(deps.nats.repository).toBe('https://nats-io.github.io/k8s/helm/charts/');
    expect(deps.mongodb.repository).toMatch(/bitnami/);
    expect(values.nats.config.jetstream.enabled).toBe(true);
    expect(values.mongodb.architecture).toBe('replicaset');
    expect(chart.apiVersion).toBe('v2');
    // NATS_URL points at the NATS chart's client Service in the same release.
    expect(tplValue(values.global.env.NATS_URL)).toBe('nats://shop-nats:4222');
  });

  it('has values for every service folder, the gateway, and nothing else', () => {
    expect(serviceFolders.sort()).toEqual([...serviceNames].sort());
    expect(Object.keys(entries).sort()).toEqual([...serviceNames, 'gateway'].sort());
  });

  it('uses the ports the code listens on by default', () => {
    for (const name of serviceNames) expect(entries[name].port, name).toBe(defaultServicePorts[name]);
    expect(entries.gateway.port).toBe(defaultGatewayPort);
  });

  it('points the gateway at each service Service of this release, on its port', () => {
    for (const name of serviceNames) {
      const url = tplValue(entries.gateway.env[`${name.toUpperCase()}_URL`]);
      expect(url, name).toBe(`http://shop-${name}:${entries[name].port}`);
    }
  });

  it('gives every entry an image, replicas and resource requests and limits', () => {
    for (const [name, entry] of Object.entries(entries)) {
      expect(entry.image.repository, name).toMatch(/^[a-z0-9./_-]+$/);
      expect(entry.replicas, name).toBeGreaterThanOrEqual(1);
      for (const kind of ['requests', 'limits'] as const) {
        expect(entry.resources[kind].cpu, `${name} ${kind}.cpu`).toBeTruthy();
        expect(entry.resources[kind].memory, `${name} ${kind}.memory`).toBeTruthy();
      }
    }
  });

  it('probes the paths every service and the gateway serve', () => {
    expect(values.global.probes.liveness.path).toBe('/healthz');
    expect(values.global.probes.readiness.path).toBe('/readyz');
    const tpl = templates['_service.tpl'];
    expect(tpl).toMatch(/livenessProbe:\s+httpGet:\s+path: \{\{ \$global\.probes\.liveness\.path \}\}/);
    expect(tpl).toMatch(/readinessProbe:\s+httpGet:\s+path: \{\{ \$global\.probes\.readiness\.path \}\}/);
    // The code registers those routes: service-kit for the services, the gateway itself.
    const kit = filesUnder(join(ROOT, 'packages/service-kit/src'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const gateway = filesUnder(join(ROOT, 'gateway/src'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    for (const source of [kit, gateway]) {
      expect(source).toMatch(/['"`]\/healthz['"`]/);
      expect(source).toMatch(/['"`]\/readyz['"`]/);
    }
  });

  it.each(['orders', 'payments', 'customers', 'support', 'marketing', 'security', 'email', 'gateway'])(
    'sets every environment variable %s reads',
    (name) => {
      const part = parts.find((candidate) => candidate.name === name)!;
      const provided = providedTo(name);
      const missing = [...part.reads]
        .filter(([variable]) => !provided.has(variable))
        .map(([variable, file]) => `${variable} (read in ${file})`);
      expect(missing, `add these to charts/shop/values.yaml (services.${name}.env or secretEnv)`).toEqual([]);
    },
  );

  it('references secrets and never inlines them', () => {
    const refs: [string, SecretRef][] = [
      ...Object.entries(values.global.secretEnv),
      ...Object.values(entries).flatMap((entry) => Object.entries(entry.secretEnv ?? {})),
    ];
    for (const [variable, ref] of refs) {
      expect(Object.keys(ref).sort(), variable).toEqual(expect.arrayContaining(['key', 'secretName']));
      expect(
        Object.keys(ref).every((key) => ['secretName', 'key', 'optional'].includes(key)),
        variable,
      ).toBe(true);
    }
    const secretNames = new Set(refs.map(([variable]) => variable));
    for (const variable of ['MONGO_URL', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'OPENAI_API_KEY', 'SMTP_URL']) {
      expect(secretNames.has(variable), variable).toBe(true);
    }
    // Nothing that looks like a credential sits among the plain settings (ConfigMaps are not secret).
    const plain = [values.global.env, ...Object.values(entries).map((entry) => entry.env ?? {})].flatMap((env) =>
      Object.keys(env),
    );
    expect(plain.filter((key) => /SECRET|PASSWORD|TOKEN|API_KEY|MONGO_URL|SMTP_URL/.test(key))).toEqual([]);
    expect(templates['_service.tpl']).toMatch(/secretKeyRef:/);
  });

  it('locks every container down', () => {
    const tpl = templates['_service.tpl'];
    for (const rule of [
      /runAsNonRoot: true/,
      /readOnlyRootFilesystem: true/,
      /allowPrivilegeEscalation: false/,
      /drop: \["ALL"\]/,
      /mountPath: \/tmp/,
      /emptyDir:/,
      /automountServiceAccountToken: false/,
    ]) {
      expect(tpl).toMatch(rule);
    }
    // The image's user is the one the pods run as.
    const dockerfile = read('deploy/Dockerfile');
    expect(dockerfile).toMatch(
      new RegExp(`^USER ${values.global.podSecurity.runAsUser}:${values.global.podSecurity.runAsGroup}$`, 'm'),
    );
  });

  it('renders the gateway Ingress and one Deployment, Service and ConfigMap per entry from one template set', () => {
    expect(templates['services.yaml']).toMatch(/range \$name, \$svc := \.Values\.services/);
    expect(templates['services.yaml']).toMatch(/include "shop\.service"/);
    for (const kind of ['Deployment', 'Service', 'ConfigMap'])
      expect(templates['_service.tpl']).toContain(`kind: ${kind}`);
    // No other template defines workloads: every service goes through the shared set.
    for (const [file, text] of Object.entries(templates)) {
      if (file !== '_service.tpl') expect(text, file).not.toMatch(/^kind: (Deployment|StatefulSet)/m);
    }
    expect(templates['ingress.yaml']).toContain('kind: Ingress');
    expect(entries.gateway.ingress?.enabled).toBe(true);
    expect(entries.gateway.ingress?.hosts.length).toBeGreaterThan(0);
  });
});

describe('the templates, read without helm', () => {
  it('include only named templates that are defined', () => {
    const defined = new Set([...allTemplates.matchAll(/define "([^"]+)"/g)].map((match) => match[1]));
    const included = new Set([...allTemplates.matchAll(/include "([^"]+)"/g)].map((match) => match[1]));
    expect([...included].filter((name) => !defined.has(name))).toEqual([]);
  });

  it('close every block they open', () => {
    for (const [file, text] of Object.entries(templates)) {
      const actions = [...text.matchAll(/\{\{-?\s*(.*?)\s*-?\}\}/gs)].map((match) => match[1]);
      let depth = 0;
      for (const action of actions) {
        if (/^(if|range|with|define|block)\b/.test(action)) depth++;
        if (/^end\b/.test(action)) depth--;
        expect(depth, `${file}: "end" without an opening block`).toBeGreaterThanOrEqual(0);
      }
      expect(depth, `${file}: unclosed block`).toBe(0);
    }
  });

  /** Follows a dotted path in an object; undefined when a step is missing. */
  const at = (object: unknown, path: string[]) =>
    path.reduce<unknown>(
      (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
      object,
    );

  it('reference only values that exist', () => {
    const missing: string[] = [];
    // .Values.a.b / $.Values.a.b / $root.Values.a.b
    for (const match of allTemplates.matchAll(/(?:\$|\$root|\.root)?\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)) {
      const path = match[1].slice(1).split('.');
      if (at(values, path) === undefined) missing.push(`.Values.${path.join('.')}`);
    }
    // $global.x inside the service template is .Values.global.x
    for (const match of allTemplates.matchAll(/\$global((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)) {
      const path = match[1].slice(1).split('.');
      if (at(values.global, path) === undefined && at(values.global.image, path) === undefined)
        missing.push(`global.${path.join('.')}`);
    }
    // $svc.x / .svc.x must exist on every entry (unless the template supplies a default).
    for (const match of allTemplates.matchAll(/(?:\$svc|\.svc)((?:\.[A-Za-z_][A-Za-z0-9_]*)+)(\s*\|\s*default)?/g)) {
      if (match[2]) continue;
      const path = match[1].slice(1).split('.');
      for (const [name, entry] of Object.entries(entries)) {
        if (path[0] === 'enabled') continue; // absent means enabled
        if (at(entry, path) === undefined) missing.push(`services.${name}.${path.join('.')}`);
      }
    }
    // $image.x is the entry's image
    for (const match of allTemplates.matchAll(/\$image\.([A-Za-z_]+)/g)) {
      for (const [name, entry] of Object.entries(entries))
        if (at(entry.image, [match[1]]) === undefined) missing.push(`services.${name}.image.${match[1]}`);
    }
    // $gateway.x is the gateway entry
    for (const match of allTemplates.matchAll(/\$gateway((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)) {
      const path = match[1].slice(1).split('.');
      if (at(entries.gateway, path) === undefined) missing.push(`services.gateway.${path.join('.')}`);
    }
    expect([...new Set(missing)]).toEqual([]);
  });
});
