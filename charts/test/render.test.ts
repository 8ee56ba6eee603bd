// Renders the chart with the real helm (helm.ts) and checks the manifests a cluster would receive: one
// Deployment, Service and ConfigMap per entry, wired to each other and to the code's ports, probes and
// environment variables.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { defaultGatewayPort, defaultServicePorts, serviceNames } from '@shop/contracts';
import { describe, expect, it } from 'vitest';
import { ROOT, chartMeta, objectsOf, offlineHelm, readValues } from './helm.ts';

const defaults = readValues();
const helm = offlineHelm();

const manifests = helm.template();
const notes = helm.notes();
const { byKind, named, one } = objectsOf(manifests);
const parts = [...serviceNames, 'gateway'];
const portOf = (name: string) =>
  name === 'gateway' ? defaultGatewayPort : defaultServicePorts[name as keyof typeof defaultServicePorts];

function envVarsReadBy(dir: string): string[] {
  const walk = (folder: string): string[] =>
    existsSync(folder)
      ? readdirSync(folder).flatMap((name) => {
          const path = join(folder, name);
          return statSync(path).isDirectory() ? walk(path) : path.endsWith('.ts') ? [path] : [];
        })
      : [];
  const folders = [join(ROOT, dir, 'src'), join(ROOT, 'packages/service-kit/src')];
  const names = new Set<string>();
  for (const file of folders.flatMap(walk)) {
    const code = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/(^|\s)\/\/.*$/gm, '$1');
    for (const match of code.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)) names.add(match[1]);
  }
  return [...names];
}

describe('the rendered chart', () => {
  it('has one Deployment, Service and ConfigMap per service and the gateway, and one Ingress', () => {
    for (const kind of ['Deployment', 'Service', 'ConfigMap'] as const) {
      expect(
        byKind(kind)
          .map((manifest) => manifest.metadata?.name)
          .sort(),
        kind,
      ).toEqual(parts.map((name) => `shop-${name}`).sort());
    }
    expect(byKind('Ingress')).toHaveLength(1);
    // The stand-in NATS and MongoDB charts render nothing: every workload is the shop's own.
    expect(manifests.every((manifest) => manifest.metadata.labels?.['app.kubernetes.io/part-of'] === 'shop')).toBe(
      true,
    );
  });

  it.each(parts)('runs %s locked down, on its port, with probes on /healthz and /readyz', (name) => {
    const deployment = one('Deployment', `shop-${name}`);
    const pod = deployment.spec!.template.spec!;
    const [container] = pod.containers;
    expect(container.ports).toEqual([{ name: 'http', containerPort: portOf(name), protocol: 'TCP' }]);
    expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.securityContext).toEqual({
      runAsNonRoot: true,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(container.volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }]);
    expect(pod.volumes).toEqual([{ name: 'tmp', emptyDir: { sizeLimit: '256Mi' } }]);
    expect(container.resources?.requests?.cpu).toBeTruthy();
    expect(container.resources?.limits?.memory).toBeTruthy();
    expect(container.image).toBe(`shop-${name}:${chartMeta.appVersion}`);
    const spec = deployment.spec!;
    expect(spec.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': name, 'app.kubernetes.io/instance': 'shop' });
    expect(spec.template.metadata?.labels).toMatchObject(spec.selector.matchLabels!);
    expect(spec.template.metadata?.annotations?.['checksum/config']).toMatch(/^[0-9a-f]{64}$/);

    const service = one('Service', `shop-${name}`);
    expect(service.spec?.selector).toEqual(spec.selector.matchLabels);
    expect(service.spec?.ports).toEqual([{ name: 'http', port: portOf(name), targetPort: 'http', protocol: 'TCP' }]);
  });

  it.each(parts)('gives %s every environment variable its code reads', (name) => {
    const [container] = one('Deployment', `shop-${name}`).spec!.template.spec!.containers;
    const configMap = one('ConfigMap', container.envFrom?.[0]?.configMapRef?.name ?? '');
    const data = configMap.data ?? {};
    const set = new Set([
      'PATH',
      'HOME',
      'HOSTNAME',
      ...Object.keys(data),
      ...(container.env ?? []).map((entry) => entry.name),
    ]);
    const dir = name === 'gateway' ? 'gateway' : `services/${name}`;
    // Values left empty on purpose (OTEL_EXPORTER_OTLP_ENDPOINT: no export) are not rendered: unset.
    const optionalWhenEmpty = new Set(
      [defaults.global.env, defaults.services[name]?.env ?? {}].flatMap((env) =>
        Object.entries(env)
          .filter(([, value]) => value === '')
          .map(([key]) => key),
      ),
    );
    expect(envVarsReadBy(dir).filter((variable) => !set.has(variable) && !optionalWhenEmpty.has(variable))).toEqual([]);
    expect(configMap.data).toMatchObject({
      PORT: String(portOf(name)),
      HOST: '0.0.0.0',
      NATS_URL: 'nats://shop-nats:4222',
      NATS_STREAM_REPLICAS: '3',
    });
    expect(configMap.data).not.toHaveProperty('OTEL_EXPORTER_OTLP_ENDPOINT');
    // Every value in a ConfigMap is a string.
    for (const value of Object.values(data)) expect(typeof value).toBe('string');
  });

  it('reads MONGO_URL and the provider keys from secrets; each service its own MongoDB user, the gateway none', () => {
    const envOf = (name: string) => one('Deployment', `shop-${name}`).spec!.template.spec!.containers[0].env ?? [];
    for (const name of serviceNames) {
      expect(envOf(name).find((entry) => entry.name === 'MONGO_URL')?.valueFrom?.secretKeyRef, name).toEqual({
        name: `shop-mongo-${name}`,
        key: 'MONGO_URL',
        optional: false,
      });
    }
    // The gateway never opens MongoDB, so it holds no connection string.
    expect(envOf('gateway').map((entry) => entry.name)).not.toContain('MONGO_URL');
    expect(envOf('payments').find((entry) => entry.name === 'STRIPE_SECRET_KEY')?.valueFrom?.secretKeyRef).toEqual({
      name: 'shop-stripe',
      key: 'STRIPE_SECRET_KEY',
      // Required: in production the payments service refuses to start without Stripe.
      optional: false,
    });
    expect(envOf('orders').map((entry) => entry.name)).toContain('OPENAI_API_KEY');
    expect(envOf('email').map((entry) => entry.name)).toContain('SMTP_URL');
    // No secret value anywhere in the rendered output.
    for (const configMap of byKind('ConfigMap'))
      expect(Object.keys(configMap.data ?? {}).join(',')).not.toMatch(/MONGO_URL|SECRET|API_KEY|SMTP_URL/);
    expect(manifests.filter((manifest) => manifest.kind === 'Secret')).toEqual([]);
  });

  it('points the gateway at the Services of this release and routes the Ingress to it', () => {
    const config = one('ConfigMap', 'shop-gateway').data ?? {};
    for (const name of serviceNames) {
      const url = new URL(config[`${name.toUpperCase()}_URL`] ?? '');
      const service = named('Service', url.hostname);
      expect(service, `${name}: no Service ${url.hostname}`).toBeDefined();
      expect(Number(url.port)).toBe(service?.spec?.ports?.[0]?.port);
    }
    const ingress = one('Ingress', 'shop-gateway').spec!;
    const backend = ingress.rules?.[0]?.http?.paths[0]?.backend.service;
    expect(backend).toEqual({ name: 'shop-gateway', port: { name: 'http' } });
    expect(ingress.rules?.[0]?.host).toBe('shop.example.com');
    expect(ingress.ingressClassName).toBe('nginx');
  });

  it('follows the values: another release name, a registry and tag, an entry turned off, no ingress', () => {
    const values = {
      global: {
        image: { registry: 'ghcr.io/acme', tag: '1.2.3' },
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' },
      },
      services: { marketing: { enabled: false }, gateway: { ingress: { enabled: false } } },
    };
    const other = objectsOf(helm.template([values], 'staging'));
    const otherNotes = helm.notes([values], 'staging');
    const deployments = other.byKind('Deployment');
    expect(deployments.map((manifest) => manifest.metadata?.name)).not.toContain('staging-marketing');
    expect(deployments).toHaveLength(parts.length - 1);
    expect(other.byKind('Ingress')).toHaveLength(0);
    expect(other.one('Deployment', 'staging-orders').spec?.template.spec?.containers[0].image).toBe(
      'ghcr.io/acme/shop-orders:1.2.3',
    );
    const config = other.one('ConfigMap', 'staging-gateway').data ?? {};
    expect(config.ORDERS_URL).toBe('http://staging-orders:4101');
    expect(config.NATS_URL).toBe('nats://staging-nats:4222');
    expect(config.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://collector:4318');
    expect(otherNotes).toContain('port-forward svc/staging-gateway 8080:8080');
  });

  it('writes install notes naming the secrets to create', () => {
    expect(notes).toContain('MONGO_URL (orders) <- secret shop-mongo-orders, key MONGO_URL\n');
    expect(notes).not.toContain('(gateway) <- secret shop-mongo');
    expect(notes).toContain('STRIPE_SECRET_KEY (payments) <- secret shop-stripe, key STRIPE_SECRET_KEY\n');
    expect(notes).toContain('OPENAI_API_KEY (orders) <- secret shop-openai, key OPENAI_API_KEY (optional)');
    expect(notes).toContain('https://shop.example.com/');
    expect(notes).toContain('secret shop-mongodb-auth, key mongodb-passwords');
    expect(notes).toContain(
      'shop_orders, shop_payments, shop_customers, shop_support, shop_marketing, shop_security, shop_email',
    );
  });
});
