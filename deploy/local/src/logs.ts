import type { LogSink } from './children.js';

const COLOURS = [36, 32, 33, 35, 34, 96, 92, 93, 95, 94, 37];
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** pino fields that are shown in the line itself or are noise on a terminal. */
const SKIPPED = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'service', 'name', 'v']);

export function useColour(stream: NodeJS.WriteStream = process.stdout): boolean {
  return Boolean(stream.isTTY) && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
}

/**
 * Turns one pino JSON line into `LEVEL message key=value...`; any other line is returned unchanged.
 * Set SHOP_LOG_FORMAT=json to see the raw lines.
 */
export function formatLine(line: string): string {
  if (process.env.SHOP_LOG_FORMAT === 'json' || !line.startsWith('{')) return line;
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (typeof record.level !== 'number' && typeof record.level !== 'string') return line;
  const level =
    typeof record.level === 'number' ? (LEVELS[record.level] ?? String(record.level)) : record.level.toUpperCase();
  const parts = [level.padEnd(5), typeof record.msg === 'string' ? record.msg : ''];
  for (const [key, value] of Object.entries(record)) {
    if (SKIPPED.has(key) || value === undefined) continue;
    if (key === 'err' && value && typeof value === 'object' && 'stack' in value) {
      parts.push(`\n${String(value.stack)}`);
      continue;
    }
    parts.push(`${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return parts.filter(Boolean).join(' ');
}

/** A sink that prints `[orders]    message` lines, each part in its own colour on a terminal. */
export function prefixedConsole(names: string[], out: NodeJS.WriteStream = process.stdout): LogSink {
  const width = Math.max(...names.map((name) => name.length)) + 2;
  const colour = useColour(out);
  const colourOf = new Map(names.map((name, index) => [name, COLOURS[index % COLOURS.length]]));
  return (name, line) => {
    const label = `[${name}]`.padEnd(width + 1);
    const prefix = colour ? `\x1b[${colourOf.get(name) ?? 37}m${label}\x1b[0m` : label;
    for (const piece of formatLine(line).split('\n')) out.write(`${prefix}${piece}\n`);
  };
}

export function paint(text: string, code: number, out: NodeJS.WriteStream = process.stdout): string {
  return useColour(out) ? `\x1b[${code}m${text}\x1b[0m` : text;
}
