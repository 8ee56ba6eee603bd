// The request log's batch columns (issue 17): entries survive the trip through columns, each repeated
// text is written once, the risk level follows from the signals, and broken columns are refused.
import { describe, expect, it } from 'vitest';
import {
  gatewayRequestsLoggedData,
  requestLogColumnsOf,
  requestLogColumnsSchema,
  requestLogEntriesOf,
  riskLevelOfSignals,
  signalMaskOf,
  signalsOfMask,
  type RequestLogEntry,
} from '../src/index.js';

const at = (ms: number) => new Date(Date.UTC(2026, 10, 24, 12, 0, 0, ms)).toISOString();
const entries: RequestLogEntry[] = [
  {
    timestamp: at(5),
    ip: '203.0.113.7',
    method: 'GET',
    path: '/api/orders?id=1',
    userAgent: 'curl/8',
    statusCode: 200,
    responseTime: 1.25,
    riskLevel: 'low',
    signals: [],
    requestId: 'r-1',
  },
  {
    // Began before the first one: a negative offset.
    timestamp: at(0),
    ip: '203.0.113.7',
    method: 'POST',
    path: '/api/auth/login',
    statusCode: 401,
    responseTime: 30,
    riskLevel: 'medium',
    signals: ['failed_sign_in'],
  },
  {
    timestamp: at(9),
    ip: '2001:db8::1',
    method: 'GET',
    path: '/api/orders?id=1',
    userAgent: 'curl/8',
    statusCode: 404,
    responseTime: 0.5,
    riskLevel: 'high',
    signals: ['traversal', 'not_found'],
    requestId: 'r-3',
  },
];

describe('request log columns', () => {
  it('carry entries there and back, each repeated text once', () => {
    const columns = requestLogColumnsSchema.parse(JSON.parse(JSON.stringify(requestLogColumnsOf(entries))));
    expect(columns.strings.filter((s) => s === '203.0.113.7')).toHaveLength(1);
    expect(columns.strings.filter((s) => s === '/api/orders?id=1')).toHaveLength(1);
    expect(requestLogEntriesOf(columns)).toEqual(entries);
  });

  it('derive the risk level from the signals, as the README table says', () => {
    expect(riskLevelOfSignals(0)).toBe('low');
    expect(riskLevelOfSignals(signalMaskOf(['not_found']))).toBe('low');
    expect(riskLevelOfSignals(signalMaskOf(['not_found', 'not_found_burst']))).toBe('medium');
    expect(riskLevelOfSignals(signalMaskOf(['rate_limited']))).toBe('medium');
    expect(riskLevelOfSignals(signalMaskOf(['rate_limited', 'admin_refused']))).toBe('high');
    expect(signalsOfMask(signalMaskOf(['rate_limited', 'banned']))).toEqual(['banned', 'rate_limited']);
  });

  it('refuse columns of different lengths, unknown text indexes and oversized texts', () => {
    const good = requestLogColumnsOf(entries);
    const parse = (over: object) =>
      gatewayRequestsLoggedData.safeParse({ gateway: 'gw:1', dropped: 0, log: { ...good, ...over } });
    expect(parse({}).success).toBe(true);
    expect(parse({ statusCode: [200, 401] }).error?.issues[0].path).toEqual(['log', 'statusCode']);
    expect(parse({ ip: [0, 0, 99] }).error?.issues[0].path).toEqual(['log', 'ip', 2]);
    expect(parse({ strings: good.strings.map((s) => (s === 'GET' ? 'G'.repeat(17) : s)) }).success).toBe(false);
    expect(parse({ signals: [0, 0, 1 << 12] }).success).toBe(false);
  });
});
