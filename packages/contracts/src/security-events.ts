// Security management over NATS (admin part B §2.3): the gateway's request log batches, the active
// bans every gateway loads at start, and the address helpers both sides use (IPv4, IPv6, CIDR).
// Browser-safe: no Node imports (the admin remote validates the Ban IP form with the same rules).
import { z } from 'zod';
import { riskLevelSchema, type RiskLevel } from './catalog.js';

const isoDate = z.iso.datetime({ offset: true });

// ---------------------------------------------------------------------------------------------
// Addresses: one canonical spelling, so "::FFFF:127.0.0.3", "0:0::1" and "10.1.2.3/8" compare equal to
// what the gateway sees (127.0.0.3, ::1, 10.0.0.0/8).
// ---------------------------------------------------------------------------------------------
const ipv4Pattern = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function parseIpv4(text: string): bigint | undefined {
  if (!ipv4Pattern.test(text)) return undefined;
  return text.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function parseIpv6(text: string): bigint | undefined {
  let head = text.toLowerCase();
  if (!/^[0-9a-f:.]+$/.test(head) || head.length > 45) return undefined;
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two hex groups.
  const lastColon = head.lastIndexOf(':');
  if (head.includes('.')) {
    const v4 = parseIpv4(head.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    head = `${head.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groupsOf(halves[0]);
  const right = halves.length === 2 ? groupsOf(halves[1]) : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...right];
  let value = 0n;
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return undefined;
    value = (value << 16n) | BigInt(parseInt(g, 16));
  }
  return value;
}

/** An address as a number and its family; IPv4-mapped IPv6 addresses count as IPv4. */
export function parseIpAddress(text: string): { family: 4 | 6; value: bigint } | undefined {
  const trimmed = text.trim();
  const v4 = parseIpv4(trimmed);
  if (v4 !== undefined) return { family: 4, value: v4 };
  const v6 = parseIpv6(trimmed);
  if (v6 === undefined) return undefined;
  if (v6 >> 32n === 0xffffn) return { family: 4, value: v6 & 0xffffffffn };
  return { family: 6, value: v6 };
}

function formatIp(family: 4 | 6, value: bigint): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((s) => ((value >> s) & 0xffn).toString()).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - i * 16)) & 0xffffn));
  // RFC 5952: the longest run (of two or more) of zero groups becomes "::".
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j += 1;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** The canonical spelling of an address (undefined when it is not one). */
export function canonicalIp(text: string): string | undefined {
  const parsed = parseIpAddress(text);
  return parsed && formatIp(parsed.family, parsed.value);
}

export interface IpRange {
  family: 4 | 6;
  /** The network address (host bits zero). */
  network: bigint;
  prefix: number;
}

/** A CIDR range ("10.0.0.0/8", "2001:db8::/32"); the host bits of the address are cleared. */
export function parseCidr(text: string): IpRange | undefined {
  const match = /^([^/]+)\/(\d{1,3})$/.exec(text.trim());
  if (!match) return undefined;
  const address = parseIpAddress(match[1]);
  const prefix = Number(match[2]);
  if (!address || prefix > (address.family === 4 ? 32 : 128)) return undefined;
  const bits = BigInt(address.family === 4 ? 32 : 128);
  const mask = ((1n << bits) - 1n) ^ ((1n << (bits - BigInt(prefix))) - 1n);
  return { family: address.family, network: address.value & mask, prefix };
}

export function ipInRange(range: IpRange, address: { family: 4 | 6; value: bigint }): boolean {
  if (range.family !== address.family) return false;
  const bits = BigInt(range.family === 4 ? 32 : 128);
  const shift = bits - BigInt(range.prefix);
  return address.value >> shift === range.network >> shift;
}

/**
 * What a ban may name: one address (IPv4 or IPv6) or a CIDR range. Canonical form, or undefined when
 * the text is neither. A range covering one address is kept as that address.
 */
export function canonicalBanTarget(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed.includes('/')) return canonicalIp(trimmed);
  const range = parseCidr(trimmed);
  if (!range) return undefined;
  const address = formatIp(range.family, range.network);
  return range.prefix === (range.family === 4 ? 32 : 128) ? address : `${address}/${range.prefix}`;
}

/** Does the ban target (an address or a CIDR range, canonical) cover this address? */
export function banCovers(target: string, ip: string): boolean {
  const address = parseIpAddress(ip);
  if (!address) return false;
  if (!target.includes('/')) return canonicalIp(target) === formatIp(address.family, address.value);
  const range = parseCidr(target);
  return range ? ipInRange(range, address) : false;
}

// ---------------------------------------------------------------------------------------------
// Request logs: the gateway sends batches (one event per flush, at most every 250 ms per replica)
// ---------------------------------------------------------------------------------------------

/**
 * What made a request risky (gateway/src/request-log.ts decides; the security service's alert rules
 * count them; the table is in services/security/README.md).
 */
export const requestSignals = [
  'injection',
  'traversal',
  'banned',
  'admin_refused',
  'not_found',
  'not_found_burst',
  'failed_sign_in',
  'code_guess',
  'rate_limited',
] as const;
export const requestSignalSchema = z.enum(requestSignals);
export type RequestSignal = z.infer<typeof requestSignalSchema>;

/** A request's signals as one number: bit i set when `requestSignals[i]` is among them. */
export function signalMaskOf(signals: readonly RequestSignal[]): number {
  let mask = 0;
  for (const s of signals) mask |= 1 << requestSignals.indexOf(s);
  return mask;
}

/** The signals of a mask, in `requestSignals` order. */
export function signalsOfMask(mask: number): RequestSignal[] {
  return requestSignals.filter((_, i) => (mask & (1 << i)) !== 0);
}

const maskOf = (...signals: RequestSignal[]) => signalMaskOf(signals);
const highRiskSignals = maskOf('injection', 'traversal', 'banned', 'admin_refused');
const mediumRiskSignals = maskOf('failed_sign_in', 'code_guess', 'rate_limited', 'not_found_burst');

/**
 * The risk level follows from the signals (the table in services/security/README.md): high for
 * injection, traversal, a banned address or a refused admin call; medium for failed sign-ins, refused
 * codes, rate limits and 404 bursts; low otherwise. One rule for the gateway and the security service.
 */
export function riskLevelOfSignals(mask: number): RiskLevel {
  return mask & highRiskSignals ? 'high' : mask & mediumRiskSignals ? 'medium' : 'low';
}

export const requestLogEntrySchema = z.object({
  timestamp: isoDate,
  ip: z.string().min(1).max(64),
  method: z.string().min(1).max(16),
  /** Path and query with the values of secret-bearing parameters replaced by "[redacted]". */
  path: z.string().max(2048),
  userAgent: z.string().max(512).optional(),
  statusCode: z.number().int().min(100).max(599),
  /** Milliseconds, as the gateway measured it. */
  responseTime: z.number().nonnegative(),
  riskLevel: riskLevelSchema,
  signals: z.array(requestSignalSchema).max(requestSignals.length),
  requestId: z.string().max(128).optional(),
});
/** One logged request as the security service stores it (decoded from a batch's columns). */
export type RequestLogEntry = z.infer<typeof requestLogEntrySchema>;

/**
 * Most entries in one batch event. With columns an ordinary entry is about 60 bytes, so a flush of a
 * busy replica is one message (each JetStream publish costs the gateway far more than its bytes do).
 */
export const maxRequestLogBatch = 2000;
/**
 * Most characters of text (distinct strings and request ids) a batch may carry, so an event stays
 * well under NATS's 1 MB default payload however long the addresses and user agents are; the gateway
 * ends a batch early at this size.
 */
export const maxRequestLogBatchText = 512 * 1024;

/** Longest text of each string column (the same limits as an entry's fields). */
const columnTextLimits = { ip: 64, method: 16, path: 2048, userAgent: 512 } as const;
const tableIndex = z.number().int().min(0);

/**
 * A batch of request log entries as columns: entry i is the i-th value of every column. It is what
 * keeps logging cheap for the gateway (issue 17: under 5% of its throughput): no object and no key
 * names per entry, and each repeated text (addresses, methods, paths, user agents) written once in
 * `strings` and referred to by its index. Times are whole milliseconds after `since`; the risk level
 * is not sent, it follows from the signals (`riskLevelOfSignals`).
 */
export const requestLogColumnsSchema = z
  .object({
    /** Epoch milliseconds the `startedAt` offsets count from. */
    since: z.number().int().nonnegative(),
    /** The distinct texts of the batch. */
    strings: z.array(z.string().max(columnTextLimits.path)).max(4 * maxRequestLogBatch),
    /** When each request arrived: milliseconds after `since` (negative when it began earlier). */
    startedAt: z.array(z.number().int()).max(maxRequestLogBatch),
    /** Client address, as the gateway determined it: index into `strings`. */
    ip: z.array(tableIndex),
    method: z.array(tableIndex),
    /** Path and query with the values of secret-bearing parameters replaced by "[redacted]". */
    path: z.array(tableIndex),
    /** Index into `strings`, or -1 when the request sent none. */
    userAgent: z.array(z.number().int().min(-1)),
    statusCode: z.array(z.number().int().min(100).max(599)),
    /** Milliseconds, as the gateway measured it. */
    responseTime: z.array(z.number().nonnegative()),
    /** The signals behind the risk level, as `signalMaskOf` bits. */
    signals: z.array(
      z
        .number()
        .int()
        .min(0)
        .max(2 ** requestSignals.length - 1),
    ),
    /** The gateway's request id ("" when there was none). */
    requestId: z.array(z.string().max(128)),
  })
  .superRefine((batch, ctx) => {
    const count = batch.startedAt.length;
    const columns = [
      'ip',
      'method',
      'path',
      'userAgent',
      'statusCode',
      'responseTime',
      'signals',
      'requestId',
    ] as const;
    for (const column of columns)
      if (batch[column].length !== count)
        ctx.addIssue({
          code: 'custom',
          path: [column],
          message: `has ${batch[column].length} values for ${count} entries`,
        });
    for (const column of ['ip', 'method', 'path', 'userAgent'] as const) {
      const values = batch[column];
      for (let i = 0; i < values.length; i++) {
        const text = values[i] === -1 && column === 'userAgent' ? '' : batch.strings[values[i]];
        const required = column === 'ip' || column === 'method';
        if (text === undefined || text.length > columnTextLimits[column] || (required && text === '')) {
          ctx.addIssue({ code: 'custom', path: [column, i], message: `is not an index of a valid ${column}` });
          return;
        }
      }
    }
  });
export type RequestLogColumns = z.infer<typeof requestLogColumnsSchema>;

/**
 * Builds a batch's columns an entry at a time, writing each distinct text once. The gateway fills
 * one per flush straight from its buffer; `requestLogColumnsOf` fills one from entries.
 */
export class RequestLogColumnsBuilder {
  private readonly index = new Map<string, number>();
  private readonly columns: RequestLogColumns;
  private text = 0;

  constructor(since: number) {
    this.columns = {
      since,
      strings: [],
      startedAt: [],
      ip: [],
      method: [],
      path: [],
      userAgent: [],
      statusCode: [],
      responseTime: [],
      signals: [],
      requestId: [],
    };
  }

  get count() {
    return this.columns.startedAt.length;
  }

  /** The index of a text in `strings`, added when new. */
  intern(text: string): number {
    let i = this.index.get(text);
    if (i === undefined) {
      i = this.columns.strings.push(text) - 1;
      this.index.set(text, i);
      this.text += text.length;
    }
    return i;
  }

  /** Characters of text written so far (distinct strings and request ids), for `maxRequestLogBatchText`. */
  get textLength() {
    return this.text;
  }

  /** One entry; `path` is an index from `intern` (the gateway redacts each distinct address once). */
  add(
    startedAt: number,
    ip: string,
    method: string,
    path: number,
    userAgent: string | undefined,
    statusCode: number,
    responseTime: number,
    signals: number,
    requestId: string,
  ) {
    const c = this.columns;
    c.startedAt.push(startedAt - c.since);
    c.ip.push(this.intern(ip));
    c.method.push(this.intern(method));
    c.path.push(path);
    c.userAgent.push(userAgent ? this.intern(userAgent) : -1);
    c.statusCode.push(statusCode);
    c.responseTime.push(responseTime);
    c.signals.push(signals);
    c.requestId.push(requestId);
    this.text += requestId.length;
  }

  build(): RequestLogColumns {
    return this.columns;
  }
}

/** The columns of entries (tests, tools; the gateway builds its batches from its buffer). */
export function requestLogColumnsOf(entries: readonly RequestLogEntry[]): RequestLogColumns {
  const times = entries.map((e) => Date.parse(e.timestamp));
  const builder = new RequestLogColumnsBuilder(times.length ? Math.min(...times) : 0);
  entries.forEach((e, i) =>
    builder.add(
      times[i],
      e.ip,
      e.method,
      builder.intern(e.path),
      e.userAgent,
      e.statusCode,
      e.responseTime,
      signalMaskOf(e.signals),
      e.requestId ?? '',
    ),
  );
  return builder.build();
}

/** The entries of a batch's columns (checked against the schema already), with their risk levels. */
export function requestLogEntriesOf(batch: RequestLogColumns): RequestLogEntry[] {
  const { strings } = batch;
  return batch.startedAt.map((offset, i) => {
    const userAgent = batch.userAgent[i];
    const requestId = batch.requestId[i];
    return {
      timestamp: new Date(batch.since + offset).toISOString(),
      ip: strings[batch.ip[i]],
      method: strings[batch.method[i]],
      path: strings[batch.path[i]],
      ...(userAgent >= 0 ? { userAgent: strings[userAgent] } : {}),
      statusCode: batch.statusCode[i],
      responseTime: batch.responseTime[i],
      riskLevel: riskLevelOfSignals(batch.signals[i]),
      signals: signalsOfMask(batch.signals[i]),
      ...(requestId ? { requestId } : {}),
    };
  });
}

/** `gateway.requests_logged`: one flush of a gateway replica's request log buffer. */
export const gatewayRequestsLoggedData = z.object({
  /** Which replica sent it (host name and process id). */
  gateway: z.string().min(1).max(200),
  /** The entries, as columns. */
  log: requestLogColumnsSchema,
  /** Entries this replica dropped (oldest first) since its previous batch, because NATS was away. */
  dropped: z.number().int().nonnegative(),
});
export type GatewayRequestsLoggedData = z.infer<typeof gatewayRequestsLoggedData>;

// ---------------------------------------------------------------------------------------------
// Bans every gateway keeps in memory
// ---------------------------------------------------------------------------------------------

/** Core request/reply: the bans in force now (a gateway asks at start and after every reconnect). */
export const activeBansSubject = 'rpc.security.bans.active';
export const activeBanSchema = z.object({
  /** Canonical address or CIDR range. */
  ip: z.string().min(1),
  expiresAt: isoDate.nullable(),
});
export type ActiveBan = z.infer<typeof activeBanSchema>;
export const activeBansReplySchema = z.object({ bans: z.array(activeBanSchema) });

/** The answer a banned address gets from the gateway, on every route. */
export const bannedAddressMessage =
  'Access from your address has been blocked by the shop because of suspicious activity. If you think this is a mistake, please contact us from another network.';

// ---------------------------------------------------------------------------------------------
// Alerts
// ---------------------------------------------------------------------------------------------
export const alertTypes = [
  'brute_force',
  'code_guessing',
  'not_found_burst',
  'injection_attempt',
  'rate_limit_storm',
  'banned_ip_retry',
  'request_logs_dropped',
] as const;
export const alertTypeSchema = z.enum(alertTypes);
export type AlertType = z.infer<typeof alertTypeSchema>;
