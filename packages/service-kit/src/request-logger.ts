// The request's logger, made only when the request logs something. Fastify gives every request a child
// of the process's pino logger, and pino's `child` serialises the bindings and runs the redaction over
// them: on the gateway's proxied read it was the largest single piece of its own work (4.7%,
// load-tests/RESULTS.md, Gateway), and on the tracking read a service made one per request too, for lines
// that are almost never written (at the production level Fastify's per-request lines are off). This
// stand-in answers Fastify's logger interface, checks the level on the parent, and makes the real child
// (with the request id) the first time a line is written. Each line is written inside the request's lean
// server span (server-spans.ts), so the logger's mixin (logger.ts) adds its trace ids once, whether the
// line comes from a hook before the span is the active context or from a handler running in it. The
// gateway and every service (createService) use it.
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString } from 'pino';
import { requestTraceBindings, withRequestSpan } from './server-spans.js';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
/** A pino logger as Fastify types it, with pino's level check. */
type LeveledLogger = FastifyBaseLogger & { isLevelEnabled(level: LevelWithSilentOrString): boolean };

class LazyRequestLogger {
  private made: LeveledLogger | undefined;

  constructor(
    private readonly parent: LeveledLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
    private readonly req: IncomingMessage,
  ) {}

  /** The real child logger, made once. */
  private logger(): LeveledLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options) as LeveledLogger);
  }

  private enabled(level: Level): boolean {
    // A route with its own level decides on its own child; otherwise the parent's level applies.
    if (this.made || this.options.level !== undefined) return this.logger().isLevelEnabled(level);
    return this.parent.isLevelEnabled(level);
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  isLevelEnabled(level: LevelWithSilentOrString): boolean {
    return level === 'silent' || this.enabled(level as Level);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  private write(level: Level, obj: unknown, msg: string | undefined, args: unknown[]): void {
    if (!this.enabled(level)) return;
    const logger = this.logger();
    // The arguments as given: a message alone stays alone (no undefined interpolation argument).
    withRequestSpan(this.req, () =>
      msg === undefined && args.length === 0 ? logger[level](obj) : logger[level](obj, msg, ...args),
    );
  }

  // Methods on the prototype: nothing allocated per request but the object itself.
  fatal(obj: unknown, msg?: string, ...args: unknown[]): void {
    this.write('fatal', obj, msg, args);
  }
  error(obj: unknown, msg?: string, ...args: unknown[]): void {
    this.write('error', obj, msg, args);
  }
  warn(obj: unknown, msg?: string, ...args: unknown[]): void {
    this.write('warn', obj, msg, args);
  }
  info(obj: unknown, msg?: string, ...args: unknown[]): void {
    this.write('info', obj, msg, args);
  }
  debug(obj: unknown, msg?: string, ...args: unknown[]): void {
    this.write('debug', obj, msg, args);
  }
  trace(obj: unknown, msg?: string, ...args: unknown[]): void {
    this.write('trace', obj, msg, args);
  }
  silent(): void {}
}

/**
 * Fastify's `childLoggerFactory`: a request logger that costs nothing until it writes.
 * Fastify's stand-in logger (logging off) has no levels: its children are itself, as Fastify makes them.
 */
export function lazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
  req: IncomingMessage,
): FastifyBaseLogger {
  const parent = logger as FastifyBaseLogger & { isLevelEnabled?: (level: LevelWithSilentOrString) => boolean };
  if (typeof parent.isLevelEnabled !== 'function')
    return logger.child({ ...bindings, ...requestTraceBindings(req) }, options);
  return new LazyRequestLogger(parent as LeveledLogger, bindings, options, req);
}
