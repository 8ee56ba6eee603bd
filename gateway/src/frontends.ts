// Serves the built frontends: the shell at /, the remotes at /remotes/<name>/, and the shell's
// index.html for every other page address (the shell's router decides what to show). Storefront pages
// get the site content's SEO tags (src/seo.ts) and the content itself, and the home page its first
// paint (src/first-paint.ts), in that HTML; the back office's pages do not.
import { readFile, stat } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { GatewayConfig } from './config.js';
import { errorCodes } from '@shop/contracts';
import { AppError } from '@shop/service-kit/edge';
import { apiNotFound } from './errors.js';
import { withFirstPaint } from './first-paint.js';
import { siteContentSource, withSeo } from './seo.js';

export const REMOTES = ['storefront', 'admin'] as const;

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
// Files whose names never change between builds: browsers must check them every time.
const ENTRY_FILES = new Set([
  'index.html',
  'mf-manifest.json',
  'mf-manifest-stats.json',
  'mf-stats.json',
  'remoteEntry.js',
  'remoteEntry.js.map',
]);
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

// The builds write .br and .gz copies next to each asset (packages/ui/build/rspack-app.ts): served to
// browsers that accept them, and caches must keep the variants apart.
const PRECOMPRESSED = { preCompressed: true } as const;
const VARY = 'accept-encoding';

function remoteHeaders(res: HeaderTarget, filePath: string): void {
  res.setHeader('cache-control', cacheControlFor(filePath));
  res.setHeader('vary', VARY);
  // Remotes are public static code. A shell running on another origin (a dev server) may load
  // their manifest with fetch and their chunks with script tags.
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('cross-origin-resource-policy', 'cross-origin');
}

function isPageNavigation(request: FastifyRequest, path: string): boolean {
  // A last segment with an extension asks for a file, not a page.
  if (basename(path).includes('.')) return false;
  return (request.headers.accept ?? '').includes('text/html');
}

/** The file under `root` that a URL path names, if it exists and stays inside `root`. */
async function fileUnder(root: string, urlPath: string): Promise<string | undefined> {
  const relative = urlPath === '/' ? 'index.html' : urlPath.slice(1);
  const full = resolve(root, relative);
  if (!full.startsWith(root + sep)) return undefined;
  try {
    return (await stat(full)).isFile() ? relative : undefined;
  } catch {
    return undefined;
  }
}

export async function registerFrontends(app: FastifyInstance, config: GatewayConfig): Promise<void> {
  const shellDist = resolve(config.frontendsDir, 'shell', 'dist');
  const currentContent = siteContentSource(config.services.marketing);
  const isAdminPage = (path: string) => path === '/admin' || path.startsWith('/admin/');

  // Decorates reply.sendFile only; the catch-all route below decides what "/..." means.
  await app.register(fastifyStatic, { root: shellDist, serve: false, cacheControl: false, ...PRECOMPRESSED });
  // A missing remote folder is fine: its files answer 404 and the shell shows its own error.
  for (const remote of REMOTES) {
    await app.register(fastifyStatic, {
      root: join(config.frontendsDir, remote, 'dist'),
      prefix: `/remotes/${remote}/`,
      wildcard: true,
      index: false,
      decorateReply: false,
      cacheControl: false,
      ...PRECOMPRESSED,
      setHeaders: remoteHeaders,
    });
  }

  // Every GET no other route claimed: a shell file, else the shell's index.html for a page
  // address (the shell's router shows the page or "Mission Not Found"), else a 404 envelope.
  app.get('/*', async (request: FastifyRequest, reply: FastifyReply) => {
    let path: string;
    try {
      path = decodeURIComponent(request.url.split('?', 1)[0]);
    } catch {
      throw new AppError(400, errorCodes.BAD_REQUEST, 'The address is not validly encoded.');
    }
    if (path === '/api' || path.startsWith('/api/')) throw apiNotFound(request.method, path);

    const file = await fileUnder(shellDist, path);
    // "/" and "/index.html" are the shell's page, served like every other page address.
    if (file && file !== 'index.html') {
      reply.header('cache-control', cacheControlFor(file)).header('vary', VARY);
      return reply.sendFile(file, shellDist);
    }
    if (isPageNavigation(request, path)) {
      if (!(await fileUnder(shellDist, '/'))) {
        throw new AppError(
          503,
          'FRONTEND_NOT_BUILT',
          'The shop\'s pages have not been built yet. Run "npm run build" and reload.',
        );
      }
      reply.header('cache-control', REVALIDATE).header('vary', VARY);
      if (isAdminPage(path)) return reply.sendFile('index.html', shellDist);
      const [html, content] = await Promise.all([readFile(join(shellDist, 'index.html'), 'utf8'), currentContent()]);
      const home = path === '/';
      return reply.type('text/html; charset=utf-8').send(withFirstPaint(withSeo(html, content.seo), content, home));
    }
    if (file) {
      reply.header('cache-control', cacheControlFor(file)).header('vary', VARY);
      return reply.sendFile(file, shellDist);
    }
    throw new AppError(404, errorCodes.NOT_FOUND, `Nothing is served at ${path}.`);
  });
}
