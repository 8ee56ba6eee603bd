import { createServer } from 'node:net';

/** Asks the kernel for a free TCP port on the given host (port 0), then releases it. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port: 0, host, exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('could not read the allocated port'))));
    });
  });
}

/** True when nothing listens on host:port yet (we can bind it ourselves). */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * Hands out distinct ports for one stack. `preferred` is used when it is free (the documented default
 * ports for `npm start`), otherwise a kernel-chosen free port; a port is never handed out twice, because
 * "free" only means nobody has bound it yet and our children bind theirs a moment later.
 */
export class PortAllocator {
  private readonly given = new Set<number>();

  constructor(private readonly host = '127.0.0.1') {}

  async take(preferred?: number): Promise<number> {
    if (preferred && !this.given.has(preferred) && (await isPortFree(preferred, this.host))) {
      this.given.add(preferred);
      return preferred;
    }
    for (let attempt = 0; attempt < 20; attempt++) {
      const port = await freePort(this.host);
      if (!this.given.has(port)) {
        this.given.add(port);
        return port;
      }
    }
    throw new Error('could not find a free TCP port on ' + this.host);
  }

  /** Reserves a port that must be exactly this one (the gateway's PORT); fails clearly when it is taken. */
  async takeExactly(port: number, what: string): Promise<number> {
    if (this.given.has(port) || !(await isPortFree(port, this.host))) {
      throw new Error(`port ${port} for ${what} is already in use on ${this.host}: stop what uses it or set PORT`);
    }
    this.given.add(port);
    return port;
  }
}
