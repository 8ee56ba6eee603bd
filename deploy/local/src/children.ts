import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface LogSink {
  /** One line of a child's output, without its newline. */
  (name: string, line: string, stream: 'stdout' | 'stderr'): void;
}

export interface ManagedChildOptions {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  log?: LogSink;
  /** How many recent lines to keep for error reports (a crash before ready shows them). */
  keepLines?: number;
}

/**
 * A child process in its own process group (spawned detached, so setsid): Ctrl-C on the terminal reaches
 * only the runner, which stops children in order, and stopping the group also reaches grandchildren
 * (npm -> rspack). We never look processes up by name.
 */
export class ManagedChild {
  readonly name: string;
  readonly process: ChildProcess;
  readonly exited: Promise<ChildExit>;
  private exit: ChildExit | undefined;
  private stopping = false;
  private readonly recent: string[] = [];
  private readonly keepLines: number;

  constructor(options: ManagedChildOptions) {
    this.name = options.name;
    this.keepLines = options.keepLines ?? 40;
    this.process = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.exited = new Promise((resolve) => {
      this.process.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      });
      // A spawn failure (missing binary) emits 'error' and no 'exit'.
      this.process.once('error', (error) => {
        this.remember(`could not start: ${error.message}`);
        options.log?.(this.name, `could not start: ${error.message}`, 'stderr');
        this.exit = { code: 127, signal: null };
        resolve(this.exit);
      });
    });
    for (const stream of ['stdout', 'stderr'] as const) {
      const source = this.process[stream];
      if (!source) continue;
      createInterface({ input: source, crlfDelay: Infinity }).on('line', (line) => {
        this.remember(line);
        options.log?.(this.name, line, stream);
      });
    }
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  /** True once stop() was called: an exit after that is expected, not a crash. */
  get isStopping(): boolean {
    return this.stopping;
  }

  get exitStatus(): ChildExit | undefined {
    return this.exit;
  }

  /** The last lines the child printed (for error messages). */
  recentLines(): string[] {
    return [...this.recent];
  }

  private remember(line: string): void {
    this.recent.push(line);
    if (this.recent.length > this.keepLines) this.recent.shift();
  }

  /**
   * SIGTERM to the whole process group, then wait until the leader has exited and the group is empty;
   * SIGKILL the group when that takes longer than `graceMs`.
   */
  async stop(graceMs = 10_000): Promise<ChildExit> {
    this.stopping = true;
    const pid = this.process.pid;
    if (pid === undefined) return this.exited;
    signalGroup(pid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    const leaderGone = await withTimeout(this.exited, graceMs);
    if (!leaderGone) signalGroup(pid, 'SIGKILL');
    // Grandchildren (an npm script's own child) may outlive the leader: wait for the group to empty.
    while (groupAlive(pid)) {
      if (Date.now() > deadline) signalGroup(pid, 'SIGKILL');
      await delay(50);
      if (Date.now() > deadline + 5_000) break;
    }
    return this.exited;
  }

  /** Synchronous last resort for process 'exit' handlers: kill the group without waiting. */
  killNow(): void {
    if (this.process.pid !== undefined) signalGroup(this.process.pid, 'SIGKILL');
  }
}

export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    // EPERM means it exists but is not ours: treat as alive (never the case for our own groups).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves true when `promise` settles within `ms`, false otherwise; never leaves a timer behind. */
export function withTimeout(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(true);
      },
    );
  });
}
