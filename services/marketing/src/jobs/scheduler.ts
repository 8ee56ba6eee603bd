// One shared scheduler for the service's periodic work (scheduled and unfinished campaign sends, queued
// SMS). A pass runs every interval, or at once when kicked (a Send Now, a new SMS); passes never overlap.
import type { Logger } from '@shop/service-kit';

export interface Job {
  name: string;
  run(shouldStop: () => boolean): Promise<void>;
}

export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    private readonly jobs: Job[],
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {}

  start() {
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.intervalMs);
    this.timer.unref();
    this.kick();
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Runs every job now, or right after the pass in progress. */
  kick() {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass().finally(() => {
      this.running = undefined;
      if (this.again && !this.stopped) {
        this.again = false;
        this.kick();
      }
    });
  }

  private async pass() {
    for (const job of this.jobs) {
      if (this.stopped) return;
      try {
        await job.run(() => this.stopped);
      } catch (err) {
        this.log.error({ err, job: job.name }, 'job pass failed; retried on the next pass');
      }
    }
  }
}
