// /api/docs: the services' OpenAPI documents, gathered from each service's GET /openapi.json and
// rewritten so they describe the API as the gateway serves it, including who may call each operation
// (the access table decides per method: one path can be public for GET and admin for PUT). Pages are
// plain server-rendered HTML: nothing loads from a CDN and no script runs, so they work offline and
// under the CSP.
import { adminSessionCookie, errorCodes } from '@shop/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from './config.js';
import { AppError } from '@shop/service-kit/edge';
import { accessFor } from './admin-routes.js';
import { upstreamFailure } from './errors.js';
import { ROUTES, SERVICE_NAMES, routeForPath, type ServiceName } from './routes.js';

type OpenApiDocument = {
  openapi?: string;
  swagger?: string;
  info?: { title?: string; version?: string; description?: string };
  servers?: unknown;
  host?: unknown;
  basePath?: unknown;
  paths?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
};

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function isServiceName(name: string): name is ServiceName {
  return (SERVICE_NAMES as readonly string[]).includes(name);
}

/** The OpenAPI security scheme of admin operations: the session cookie set by POST /api/auth/login. */
const ADMIN_SESSION_SCHEME = 'adminSession';

/** Who may call an operation through the gateway; `{id}` of an OpenAPI path is one segment, like `:id`. */
export function operationAccess(method: string, path: string): 'public' | 'admin' {
  return accessFor(method, path).access;
}

/**
 * Keeps only the paths the gateway routes to this service (a service's /healthz or /openapi.json
 * are not reachable from outside), marks the operations that need an admin session, and points the
 * document's server at the gateway itself.
 */
export function rewriteForGateway(doc: OpenApiDocument, service: ServiceName): OpenApiDocument {
  let anyAdmin = false;
  const paths = Object.fromEntries(
    Object.entries(doc.paths ?? {})
      .filter(([path]) => routeForPath(path)?.service === service)
      .map(([path, item]) => [
        path,
        Object.fromEntries(
          Object.entries(item ?? {}).map(([method, op]) => {
            if (
              !HTTP_METHODS.includes(method) ||
              !op ||
              typeof op !== 'object' ||
              operationAccess(method, path) !== 'admin'
            )
              return [method, op];
            anyAdmin = true;
            return [method, { ...op, security: [{ [ADMIN_SESSION_SCHEME]: [] }] }];
          }),
        ),
      ]),
  );
  const rewritten: OpenApiDocument = { ...doc, paths };
  if (anyAdmin && !doc.swagger) {
    const components = (doc.components ?? {}) as { securitySchemes?: Record<string, unknown> };
    rewritten.components = {
      ...components,
      securitySchemes: {
        ...components.securitySchemes,
        [ADMIN_SESSION_SCHEME]: {
          type: 'apiKey',
          in: 'cookie',
          name: adminSessionCookie,
          description: 'The admin session of POST /api/auth/login',
        },
      },
    };
  }
  if (doc.swagger) {
    delete rewritten.host;
    rewritten.basePath = '/';
  } else {
    rewritten.servers = [{ url: '/', description: 'The shop gateway (the same origin as this document)' }];
  }
  return rewritten;
}

async function fetchDocument(config: GatewayConfig, service: ServiceName, requestId: string): Promise<OpenApiDocument> {
  let response: Response;
  try {
    response = await fetch(`${config.services[service]}/openapi.json`, {
      signal: AbortSignal.timeout(config.upstreamTimeoutMs),
      headers: { accept: 'application/json', 'x-request-id': requestId },
    });
  } catch (error) {
    const name = (error as { name?: string }).name;
    throw upstreamFailure(service, name === 'TimeoutError' ? { code: 'ETIMEDOUT' } : error);
  }
  const body = (await response.json().catch(() => null)) as OpenApiDocument | null;
  if (!response.ok || !body || typeof body !== 'object' || (!body.openapi && !body.swagger)) {
    throw new AppError(
      502,
      'BAD_GATEWAY',
      `The ${service} service did not return an OpenAPI document (status ${response.status}).`,
      { service },
    );
  }
  return body;
}

function escapeHtml(value: unknown): string {
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2937}
h1{font-size:1.5rem}a{color:#1d4ed8}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #e5e7eb;padding:.4rem .5rem;text-align:left;vertical-align:top}
code{font-family:ui-monospace,monospace}.m{font-weight:600;text-transform:uppercase;width:5rem}
</style></head><body>${body}</body></html>`;
}

function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html');
}

function indexEntries() {
  return SERVICE_NAMES.map((name) => ({
    service: name,
    document: `/api/docs/${name}.json`,
    page: `/api/docs/${name}`,
    paths: ROUTES.filter((r) => r.service === name).map((r) => r.prefix),
  }));
}

function indexPage(): string {
  const rows = indexEntries()
    .map(
      (e) =>
        `<tr><td><a href="${e.page}">${e.service}</a></td><td>${e.paths.map((p) => `<code>${escapeHtml(p)}</code>`).join(', ')}</td><td><a href="${e.document}">${e.service}.json</a></td></tr>`,
    )
    .join('');
  return page(
    'Shop API documentation',
    `<h1>Shop API documentation</h1>
<p>Every service's OpenAPI document, as served through this gateway.</p>
<table><thead><tr><th>Service</th><th>Public paths</th><th>OpenAPI</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

function servicePage(service: ServiceName, doc: OpenApiDocument): string {
  const operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item ?? {})
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, op]) => {
        const operation = (op ?? {}) as { summary?: string; description?: string };
        const access = operationAccess(method, path) === 'admin' ? 'admin session' : 'public';
        return `<tr><td class="m">${escapeHtml(method)}</td><td><code>${escapeHtml(path)}</code></td><td>${access}</td><td>${escapeHtml(operation.summary ?? operation.description ?? '')}</td></tr>`;
      }),
  );
  const title = doc.info?.title ?? `${service} service`;
  return page(
    `${title}: API`,
    `<p><a href="/api/docs">All services</a></p>
<h1>${escapeHtml(title)} <small>${escapeHtml(doc.info?.version ?? '')}</small></h1>
${doc.info?.description ? `<p>${escapeHtml(doc.info.description)}</p>` : ''}
<p>Machine-readable: <a href="/api/docs/${service}.json">${service}.json</a></p>
${operations.length ? `<table><thead><tr><th>Method</th><th>Path</th><th>Who may call</th><th>Summary</th></tr></thead><tbody>${operations.join('')}</tbody></table>` : '<p>This service publishes no public operations yet.</p>'}`,
  );
}

export function registerDocsRoutes(app: FastifyInstance, config: GatewayConfig): void {
  app.get('/api/docs', async (request, reply) => {
    if (wantsHtml(request)) return reply.type('text/html; charset=utf-8').send(indexPage());
    return { services: indexEntries() };
  });

  app.get<{ Params: { file: string } }>('/api/docs/:file', async (request, reply: FastifyReply) => {
    const { file } = request.params;
    const asJson = file.endsWith('.json');
    const service = asJson ? file.slice(0, -'.json'.length) : file;
    if (!isServiceName(service)) {
      throw new AppError(
        404,
        errorCodes.NOT_FOUND,
        `There is no service called "${service}". Known services: ${SERVICE_NAMES.join(', ')}.`,
      );
    }
    const doc = rewriteForGateway(await fetchDocument(config, service, request.id), service);
    reply.header('cache-control', 'no-cache');
    if (asJson) return doc;
    return reply.type('text/html; charset=utf-8').send(servicePage(service, doc));
  });
}
