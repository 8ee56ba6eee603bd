// What a cluster operator expects of the chart, on helm's real output: for every service and the gateway
// a ServiceAccount without a token, a PodDisruptionBudget, a HorizontalPodAutoscaler, a NetworkPolicy,
// topology spread, and a stop that fits the process's graceful shutdown; default-deny networking; an
// Ingress whose timeouts fit the gateway's slow routes; image digests; JetStream replicas from the
// NATS cluster; one MongoDB user per service database.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serviceNames } from '@shop/contracts';
import type { IIoK8sApiNetworkingV1NetworkPolicyEgressRule } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyEgressRule';
import type { IIoK8sApiNetworkingV1NetworkPolicyIngressRule } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyIngressRule';
import { describe, expect, it } from 'vitest';
import { ROOT, objectsOf, offlineHelm, readValues } from './helm.ts';

const values = readValues();
const helm = offlineHelm();
const { named, one } = objectsOf(helm.template());
const parts = [...serviceNames, 'gateway'];
const podOf = (name: string) => one('Deployment', `shop-${name}`).spec!.template.spec!;
const policyOf = (name: string) => one('NetworkPolicy', `shop-${name}`).spec!;
const selectorOf = (name: string) => ({ 'app.kubernetes.io/name': name, 'app.kubernetes.io/instance': 'shop' });
const source = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('objects a cluster operator expects', () => {
  const kinds = [
    'Deployment',
    'Service',
    'ConfigMap',
    'ServiceAccount',
    'PodDisruptionBudget',
    'HorizontalPodAutoscaler',
    'NetworkPolicy',
  ] as const;
  it.each(parts)('exist for %s: every kind, each selecting its pods', (name) => {
    for (const kind of kinds) expect(named(kind, `shop-${name}`), `${kind} shop-${name}`).toBeDefined();
    expect(one('PodDisruptionBudget', `shop-${name}`).spec!.selector!.matchLabels).toEqual(selectorOf(name));
    expect(one('HorizontalPodAutoscaler', `shop-${name}`).spec.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: `shop-${name}`,
    });
    expect(policyOf(name).podSelector!.matchLabels).toEqual(selectorOf(name));
  });

  it.each(parts)('run %s under its own ServiceAccount with no API token', (name) => {
    const account = one('ServiceAccount', `shop-${name}`);
    expect(account.automountServiceAccountToken).toBe(false);
    expect(podOf(name).serviceAccountName).toBe(`shop-${name}`);
    expect(podOf(name).automountServiceAccountToken).toBe(false);
  });

  it.each(parts)('scale %s from its replicas up, and keep all but one pod through a drain', (name) => {
    const hpa = one('HorizontalPodAutoscaler', `shop-${name}`).spec;
    expect(hpa.minReplicas).toBe(values.services[name].replicas);
    expect(hpa.maxReplicas).toBeGreaterThan(hpa.minReplicas!);
    expect(hpa.metrics![0].resource).toMatchObject({
      name: 'cpu',
      target: { type: 'Utilization', averageUtilization: 70 },
    });
    // The autoscaler owns the count: a helm upgrade must not reset it.
    expect(one('Deployment', `shop-${name}`).spec).not.toHaveProperty('replicas');
    const budget = one('PodDisruptionBudget', `shop-${name}`).spec!;
    expect(budget.maxUnavailable).toBe(1);
    // At least two pods: a drain never leaves the part with none.
    expect(hpa.minReplicas).toBeGreaterThanOrEqual(2);
  });

  it('runs several email workers, which the email queue is built for', () => {
    expect(values.services.email.replicas).toBeGreaterThanOrEqual(2);
    // The README's promise the chart relies on: of replicas racing on one email only one claims it.
    expect(source('services/email/README.md')).toMatch(
      /replicas racing on one email only one moves it, so no email is sent twice/,
    );
  });

  it.each(parts)('spread %s over zones and nodes', (name) => {
    const constraints = podOf(name).topologySpreadConstraints ?? [];
    expect(constraints.map((constraint) => constraint.topologyKey)).toEqual([
      'topology.kubernetes.io/zone',
      'kubernetes.io/hostname',
    ]);
    for (const constraint of constraints) {
      expect(constraint.labelSelector!.matchLabels).toEqual(selectorOf(name));
      expect(constraint.maxSkew).toBe(1);
    }
  });

  it('gives every pod a preStop pause and enough time for its graceful shutdown', () => {
    // service-kit forces the exit 20 s after SIGTERM; the gateway after SHUTDOWN_TIMEOUT_MS.
    const kitBound =
      Number(
        /process\.exit\(1\);\s*\},\s*([\d_]+)\);/
          .exec(source('packages/service-kit/src/service.ts'))?.[1]
          ?.replace(/_/g, ''),
      ) / 1000;
    expect(kitBound).toBe(20);
    const gatewayBound = Number(values.services.gateway.env.SHUTDOWN_TIMEOUT_MS) / 1000;
    for (const name of parts) {
      const pod = podOf(name);
      const pause = pod.containers[0].lifecycle!.preStop!.sleep!.seconds;
      expect(pause, name).toBeGreaterThanOrEqual(5);
      const bound = name === 'gateway' ? gatewayBound : kitBound;
      // SIGKILL comes only after the pause plus the process's own bound, with a margin.
      expect(pod.terminationGracePeriodSeconds, name).toBeGreaterThan(pause + bound);
    }
  });

  it('lets the Ingress wait as long as the gateway waits on its slow routes, and take its uploads', () => {
    const annotations = one('Ingress', 'shop-gateway').metadata!.annotations!;
    const slowSeconds = Number(values.services.gateway.env.SLOW_UPSTREAM_TIMEOUT_MS) / 1000;
    expect(slowSeconds).toBe(120);
    expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThan(slowSeconds);
    expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-send-timeout'])).toBeGreaterThan(slowSeconds);
    const bodyMiB = Number(/^(\d+)m$/.exec(annotations['nginx.ingress.kubernetes.io/proxy-body-size'] ?? '')?.[1]);
    expect(bodyMiB * 1024 * 1024).toBeGreaterThan(Number(values.services.gateway.env.UPLOAD_BODY_LIMIT_BYTES));
    // The gateway's slow routes are the ones these timeouts are for.
    expect(source('gateway/src/proxy.ts')).toMatch(/row\.timeout === 'slow' \? config\.slowUpstreamTimeoutMs/);
    // An operator's own annotation wins over the derived one.
    const custom = helm.template([
      {
        services: {
          gateway: { ingress: { annotations: { 'nginx.ingress.kubernetes.io/proxy-read-timeout': '600' } } },
        },
      },
    ]);
    expect(
      objectsOf(custom).one('Ingress', 'shop-gateway').metadata!.annotations![
        'nginx.ingress.kubernetes.io/proxy-read-timeout'
      ],
    ).toBe('600');
  });

  it('runs an image by digest when one is given, whatever the tag', () => {
    const digest = `sha256:${'0123456789abcdef'.repeat(4)}`;
    const pinned = helm.template([
      { global: { image: { registry: 'ghcr.io/acme', tag: '9.9.9' } }, services: { security: { image: { digest } } } },
    ]);
    const imageOf = (name: string) =>
      objectsOf(pinned).one('Deployment', name).spec!.template.spec!.containers[0].image;
    expect(imageOf('shop-security')).toBe(`ghcr.io/acme/shop-security@${digest}`);
    expect(imageOf('shop-orders')).toBe('ghcr.io/acme/shop-orders:9.9.9');
  });

  it('keeps each JetStream stream on every server of the chart NATS cluster (3), and 1 without it', () => {
    expect(values.nats.config.cluster.replicas).toBe(3);
    for (const name of parts) expect(one('ConfigMap', `shop-${name}`).data!.NATS_STREAM_REPLICAS, name).toBe('3');
    const single = helm.template([{ nats: { config: { cluster: { enabled: false } } } }]);
    expect(objectsOf(single).one('ConfigMap', 'shop-orders').data!.NATS_STREAM_REPLICAS).toBe('1');
    // service-kit reads it: the streams are created and kept with that many replicas.
    expect(source('packages/service-kit/src/bus/streams.ts')).toMatch(/num_replicas: replicas \?\? 1/);
    expect(source('packages/service-kit/src/config.ts')).toMatch(/process\.env\.NATS_STREAM_REPLICAS/);
  });

  it('has one MongoDB user per service database, and no MongoDB credentials for the gateway', () => {
    const databases = serviceNames.map((name) => `shop_${name}`);
    // service-kit names each service's database shop_<name>.
    expect(source('packages/service-kit/src/mongo.ts')).toMatch(/return `shop_\$\{service\}`/);
    expect(values.mongodb.auth.databases).toEqual(databases);
    expect(values.mongodb.auth.usernames).toEqual(databases);
    const secretOf = (name: string) => values.services[name]?.secretEnv?.MONGO_URL?.secretName;
    for (const name of serviceNames) expect(secretOf(name), name).toBe(`{{ .Release.Name }}-mongo-${name}`);
    expect(new Set(serviceNames.map(secretOf)).size).toBe(serviceNames.length);
    expect(secretOf('gateway')).toBeUndefined();
    expect(values.global.secretEnv).not.toHaveProperty('MONGO_URL');
  });
});

describe('network policies', () => {
  type Rule = IIoK8sApiNetworkingV1NetworkPolicyEgressRule | IIoK8sApiNetworkingV1NetworkPolicyIngressRule | undefined;
  const ports = (rule: Rule) => (rule?.ports ?? []).map((entry) => entry.port);
  const egressOf = (name: string) => policyOf(name).egress ?? [];
  const egressTo = (name: string, labels: Record<string, string>) =>
    egressOf(name).filter((rule) =>
      rule.to?.some(
        (peer) => !peer.namespaceSelector && JSON.stringify(peer.podSelector?.matchLabels) === JSON.stringify(labels),
      ),
    );

  it('deny everything in the namespace unless allowed', () => {
    expect(one('NetworkPolicy', 'shop-default-deny').spec).toEqual({
      podSelector: {},
      policyTypes: ['Ingress', 'Egress'],
    });
  });

  it('let only the ingress controller reach the gateway', () => {
    const [rule, ...more] = policyOf('gateway').ingress ?? [];
    expect(more).toEqual([]);
    expect(rule?.from).toEqual([
      {
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } },
        podSelector: { matchLabels: { 'app.kubernetes.io/name': 'ingress-nginx' } },
      },
    ]);
    expect(ports(rule)).toEqual(['http']);
  });

  it.each(serviceNames)(
    'let only the gateway reach %s, which reaches only DNS, NATS, MongoDB and its provider',
    (name) => {
      const policy = policyOf(name);
      expect(policy.policyTypes).toEqual(['Ingress', 'Egress']);
      expect(policy.ingress).toEqual([
        { ports: [{ port: 'http', protocol: 'TCP' }], from: [{ podSelector: { matchLabels: selectorOf('gateway') } }] },
      ]);
      expect(
        ports(egressTo(name, { 'app.kubernetes.io/name': 'nats', 'app.kubernetes.io/instance': 'shop' })[0]),
      ).toEqual([4222]);
      expect(
        ports(egressTo(name, { 'app.kubernetes.io/name': 'mongodb', 'app.kubernetes.io/instance': 'shop' })[0]),
      ).toEqual([27017]);
      // No rule lets a service call another service: they talk over NATS.
      for (const other of parts) expect(egressTo(name, selectorOf(other)), `${name} -> ${other}`).toEqual([]);
      const outside = egressOf(name).filter((rule) => rule.to?.some((peer) => peer.ipBlock));
      const internet = values.services[name]?.internetEgress;
      if (internet) {
        expect(outside).toHaveLength(1);
        expect(outside[0]?.to?.[0]?.ipBlock?.except).toEqual(
          expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']),
        );
        expect(ports(outside[0])).toEqual(internet.ports);
      } else {
        expect(outside).toEqual([]);
      }
      expect(egressOf(name)).toHaveLength(3 + outside.length);
    },
  );

  it('let the gateway reach each service on its port and NATS, but never MongoDB', () => {
    for (const name of serviceNames)
      expect(ports(egressTo('gateway', selectorOf(name))[0]), name).toEqual([values.services[name]?.port]);
    expect(
      egressTo('gateway', { 'app.kubernetes.io/name': 'nats', 'app.kubernetes.io/instance': 'shop' }),
    ).toHaveLength(1);
    expect(egressTo('gateway', { 'app.kubernetes.io/name': 'mongodb', 'app.kubernetes.io/instance': 'shop' })).toEqual(
      [],
    );
  });

  it('let NATS take clients from the shop and MongoDB only from the services that hold a connection string', () => {
    const nats = one('NetworkPolicy', 'shop-nats').spec!.ingress ?? [];
    expect(nats[0]?.from?.[0]?.podSelector?.matchLabels).toEqual({
      'app.kubernetes.io/part-of': 'shop',
      'app.kubernetes.io/instance': 'shop',
    });
    expect(ports(nats[1])).toEqual([4222, 6222]);
    const mongodb = one('NetworkPolicy', 'shop-mongodb').spec!.ingress ?? [];
    const clients = mongodb[0]?.from?.[0]?.podSelector?.matchExpressions?.[0];
    expect(clients).toMatchObject({ key: 'app.kubernetes.io/name', operator: 'In' });
    expect([...(clients?.values ?? [])].sort()).toEqual([...serviceNames].sort());
    expect(ports(mongodb[0])).toEqual([27017]);
  });
});
