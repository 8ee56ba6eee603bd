import { existsSync } from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { natsServerBinary, NATS_NOT_INSTALLED, startNats } from '../src/index.js';

function readInfo(port: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('error', reject);
    socket.once('data', (chunk) => {
      socket.destroy();
      const line = chunk.toString('utf8');
      resolve(JSON.parse(line.slice('INFO '.length).trim()) as Record<string, unknown>); // NATS documents INFO as a JSON object
    });
  });
}

describe('startNats', () => {
  it('runs a real nats-server with JetStream on a free loopback port and cleans up on stop', async () => {
    const nats = await startNats();
    try {
      expect(nats.url).toBe(`nats://127.0.0.1:${nats.port}`);
      expect(nats.port).not.toBe(4222);
      const info = await readInfo(nats.port);
      expect(info.jetstream).toBe(true);
      expect(info.port).toBe(nats.port);
      expect(existsSync(nats.storeDir)).toBe(true);
    } finally {
      await nats.stop();
    }
    expect(existsSync(nats.storeDir)).toBe(false);
    await expect(readInfo(nats.port)).rejects.toThrow();
  });

  it('starts independent servers side by side', async () => {
    const [a, b] = await Promise.all([startNats(), startNats()]);
    try {
      expect(a.port).not.toBe(b.port);
      expect(a.storeDir).not.toBe(b.storeDir);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('says how to install nats-server when it is missing', () => {
    expect(() => natsServerBinary({ NATS_SERVER_BIN: '/nonexistent/nats-server' })).toThrow(NATS_NOT_INSTALLED);
    expect(NATS_NOT_INSTALLED).toContain('apt-get install -y nats-server');
  });
});
