// Serves the built frontends: the shell at /, the remotes at /remotes/<name>/, and the shell's
// index.html for every other page address (the shell's router decides what to show).
import { stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { GatewayConfig } from './config.js';
import { apiNotFound, GatewayError } from './errors.js';

export const REMOTES = ['storefront', 'admin'] as const;

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
// Files whose names never change between builds: browsers must check them every time.
const ENTRY_FILES = new Set(['index.html', 'mf-manifest.json', 'mf-stats.json', 'remoteEntry.js']);
// rspack's [contenthash] in a file name: at least 8 hex characters between separators.
const HASHED = /[.-][0-9a-f]{8,}\.[a-z0-9.]+$/i;

export function cacheControlFor(filePath: string): string {
  const name = basename(filePath);
  if (ENTRY_FILES.has(name) || name.endsWith('.html')) return REVALIDATE;
  return HASHED.test(name) ? IMMUTABLE : REVALIDATE;
}

/** The part of the response @fastify/static hands to setHeaders. */
interface HeaderTarget {
  setHeader(name: string, value: string): unknown;
}

function shellHeaders(res: HeaderTarget, filePath: string): void {
  res.setHeader('cache-control', cacheControlFor(filePath));
}

function remoteHeaders(res: HeaderTarget, filePath: string): void {
  res.setHeader('cache-control', cacheControlFor(filePath));
  // Remotes are public static code. A shell running on another origin (a dev server) may load
  // their manifest with fetch and their chunks with script tags.
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('cross-origin-resource-policy', 'cross-origin');
}

function isPageNavigation(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?', 1)[0]!;
  if (path.startsWith('/api/') || path === '/api' || path.startsWith('/remotes/')) return false;
  // A last segment with an extension asks for a file, not a page.
  if (basename(path).includes('.')) return false;
  return (request.headers.accept ?? '').includes('text/html');
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

export async function registerFrontends(app: FastifyInstance, config: GatewayConfig): Promise<void> {
  const shellDist = join(config.frontendsDir, 'shell', 'dist');

  // The shell owns "/" and decorates reply.sendFile (used by the fallback below).
  await app.register(fastifyStatic, {
    root: shellDist,
    prefix: '/',
    wildcard: true,
    index: ['index.html'],
    cacheControl: false,
    setHeaders: shellHeaders,
  });
  // A missing remote folder is fine: its files answer 404 and the shell shows its own error.
  for (const remote of REMOTES) {
    await app.register(fastifyStatic, {
      root: join(config.frontendsDir, remote, 'dist'),
      prefix: `/remotes/${remote}/`,
      wildcard: true,
      index: false,
      decorateReply: false,
      cacheControl: false,
      setHeaders: remoteHeaders,
    });
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?', 1)[0]!;
    if (isPageNavigation(request)) {
      if (!(await exists(join(shellDist, 'index.html')))) {
        throw new GatewayError(503, 'FRONTEND_NOT_BUILT', 'The shop\'s pages have not been built yet. Run "npm run build" and reload.');
      }
      reply.header('cache-control', REVALIDATE);
      return reply.sendFile('index.html', shellDist);
    }
    if (path.startsWith('/api/') || path === '/api') throw apiNotFound(request.method, path);
    throw new GatewayError(404, 'NOT_FOUND', `Nothing is served at ${path}.`);
  });
}
