import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PATHS, parseBenchArgs, percentile } from '../src/args.js';

const k6Script = fileURLToPath(new URL('../k6/gateway-smoke.js', import.meta.url));

describe('bench arguments', () => {
  it('defaults to the full run, 10 s, 50 connections, recorded in RESULTS.md', () => {
    expect(parseBenchArgs([])).toEqual({
      url: undefined,
      durationSeconds: 10,
      connections: 50,
      paths: DEFAULT_PATHS,
      record: true,
    });
    expect(parseBenchArgs(['--duration', '3', '--no-record'])).toMatchObject({ durationSeconds: 3, record: false });
  });

  it('takes a gateway URL, duration, connections and repeated paths', () => {
    expect(
      parseBenchArgs([
        '--url',
        'http://127.0.0.1:8080/',
        '--duration',
        '30',
        '--connections',
        '100',
        '--path',
        '/api/docs',
        '--path',
        '/',
      ]),
    ).toEqual({
      url: 'http://127.0.0.1:8080',
      durationSeconds: 30,
      connections: 100,
      paths: ['/api/docs', '/'],
      record: false,
    });
  });

  it('refuses bad values with a message naming the option', () => {
    expect(() => parseBenchArgs(['--url', 'localhost:8080'])).toThrow(/--url must be an http\(s\) URL/);
    expect(() => parseBenchArgs(['--duration', '0'])).toThrow(
      '--duration must be a whole number of at least 1, got "0"',
    );
    expect(() => parseBenchArgs(['--connections', 'many'])).toThrow(/--connections must be a whole number/);
    expect(() => parseBenchArgs(['--url', 'http://127.0.0.1:8080', '--path', 'api/health'])).toThrow(
      '--path must start with "/"',
    );
    expect(() => parseBenchArgs(['--rps', '5'])).toThrow(/rps/);
    expect(() => parseBenchArgs(['--path', '/api/health'])).toThrow('--path goes with --url');
  });
});

describe('percentile', () => {
  it('is the nearest-rank percentile', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 95)).toBe(95);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 95)).toBeNaN();
  });
});

describe('k6 script', () => {
  it('is valid JavaScript (k6 itself is not installable here)', async () => {
    await expect(promisify(execFile)(process.execPath, ['--check', k6Script])).resolves.toBeDefined();
  });

  it('has thresholds on failures and on p95 latency of both requests', async () => {
    const source = await readFile(k6Script, 'utf8');
    expect(source).toMatch(/http_req_failed: \['rate<0\.01'\]/);
    expect(source).toMatch(/'http_req_duration\{name:health\}': \['p\(95\)<\d+'/);
    expect(source).toMatch(/'http_req_duration\{name:service-info\}': \['p\(95\)<\d+'/);
  });
});
