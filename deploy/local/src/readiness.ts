import type { ManagedChild } from './children.js';
import { delay } from './children.js';

export interface ReadinessRow {
  name: string;
  url: string;
  status: 'ready' | 'not ready' | 'exited';
  /** Milliseconds from the start of the stack until the part answered ready. */
  readyAfterMs?: number;
  detail?: string;
}

/** One GET with a short timeout; the status code, or undefined when nothing answered. */
export async function probe(url: string, timeoutMs = 2_000): Promise<{ status: number; body: string } | undefined> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    return { status: response.status, body: await response.text() };
  } catch {
    return undefined;
  }
}

/**
 * Polls `<base>/readyz` until it answers 200. Fails fast when the child exits first (its last lines go
 * into the error) and after timeoutMs with the last answer seen.
 */
export async function waitReady(
  child: ManagedChild,
  base: string,
  options: { timeoutMs: number; startedAt: number; path?: string },
): Promise<ReadinessRow> {
  const path = options.path ?? '/readyz';
  const deadline = Date.now() + options.timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (!child.running) {
      const exit = child.exitStatus;
      throw new ChildNotReadyError(
        child.name,
        `${child.name} exited (code ${exit?.code ?? '-'}, signal ${exit?.signal ?? '-'}) before it was ready`,
        child.recentLines(),
      );
    }
    const answer = await probe(base + path);
    if (answer?.status === 200) {
      return { name: child.name, url: base, status: 'ready', readyAfterMs: Date.now() - options.startedAt };
    }
    if (answer) last = `${answer.status} ${answer.body.slice(0, 300)}`;
    await delay(150);
  }
  throw new ChildNotReadyError(
    child.name,
    `${child.name} was not ready after ${Math.round(options.timeoutMs / 1000)} s (last answer from ${base}${path}: ${last})`,
    child.recentLines(),
  );
}

export class ChildNotReadyError extends Error {
  constructor(
    readonly part: string,
    summary: string,
    readonly lastLines: string[],
  ) {
    super(
      lastLines.length ? `${summary}; its last lines:\n${lastLines.map((line) => `  ${line}`).join('\n')}` : summary,
    );
    this.name = 'ChildNotReadyError';
  }
}

/** A fixed-width table for the terminal. */
export function readinessTable(rows: ReadinessRow[]): string {
  const header = ['part', 'url', 'status', 'ready after'];
  const lines = rows.map((row) => [
    row.name,
    row.url,
    row.status,
    row.readyAfterMs === undefined ? '-' : `${(row.readyAfterMs / 1000).toFixed(1)} s`,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column].length)));
  const format = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]))
      .join('  ')
      .trimEnd();
  return [format(header), widths.map((width) => '-'.repeat(width)).join('  '), ...lines.map(format)].join('\n');
}
