import type { IncomingMessage } from 'node:http';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { lazyRequestLogger } from '../src/request-logger.js';

function parentLogger(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const parent = pino(
    { level },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  const child = vi.spyOn(parent, 'child');
  return { parent, lines, child };
}
const request = { headers: {} } as IncomingMessage;

describe("the request's lazy logger", () => {
  it('makes no child logger while nothing is written at an enabled level', () => {
    const { parent, lines, child } = parentLogger('warn');
    const log = lazyRequestLogger(parent, { reqId: 'r-1' }, {}, request);
    log.info({ req: 'x' }, 'incoming request');
    log.debug('details');
    const levels = log as unknown as { isLevelEnabled(level: string): boolean };
    expect(levels.isLevelEnabled('info')).toBe(false);
    expect(levels.isLevelEnabled('error')).toBe(true);
    expect(log.level).toBe('warn');
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it('writes with the request bindings once a line is at an enabled level, making the child once', () => {
    const { parent, lines, child } = parentLogger('info');
    const log = lazyRequestLogger(parent, { reqId: 'r-2' }, {}, request);
    log.info('plain');
    log.warn({ service: 'orders' }, 'service call failed: %s', 'refused');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toMatchObject([
      { reqId: 'r-2', msg: 'plain', level: 30 },
      { reqId: 'r-2', service: 'orders', msg: 'service call failed: refused', level: 40 },
    ]);
  });

  it("honours a route's own level", () => {
    const { parent, lines } = parentLogger('warn');
    const log = lazyRequestLogger(parent, { reqId: 'r-3' }, { level: 'debug' }, request);
    log.debug('route detail');
    expect(lines).toMatchObject([{ reqId: 'r-3', msg: 'route detail' }]);
  });
});
