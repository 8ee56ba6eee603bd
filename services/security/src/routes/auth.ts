// POST /api/auth/login, POST /api/auth/logout, GET /api/auth/me: the admin session in an HttpOnly,
// SameSite=Strict cookie (Secure outside local development), ended on the server at logout.
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  adminSessionCookie,
  authUserResponseSchema,
  errorEnvelopeSchema,
  loginBodySchema,
  logoutResponseSchema,
  readCookie,
} from '@shop/contracts';
import { sendError, type ServiceApp } from '@shop/service-kit';
import { TooManyAttempts, type AuthService, type ClientInfo } from '../auth.js';
import { SESSION_IDLE_MS } from '../domain/sessions.js';

export function sessionCookie(value: string, secure: boolean, maxAgeSeconds: number): string {
  const parts = [`${adminSessionCookie}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`];
  if (maxAgeSeconds === 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

function clientOf(request: FastifyRequest): ClientInfo {
  return { ip: request.ip, userAgent: request.headers['user-agent'], requestId: request.id };
}

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  429: errorEnvelopeSchema,
  500: errorEnvelopeSchema,
};

/** `auth` is read per request: the service is assembled after its routes are registered. */
export function authRoutes(app: ServiceApp, getAuth: () => AuthService, options: { cookieSecure: boolean }) {
  const setSession = (reply: FastifyReply, sessionId: string, expiresAt?: Date) => {
    const maxAge = expiresAt
      ? Math.max(1, Math.floor((expiresAt.getTime() - getAuth().now().getTime()) / 1000))
      : SESSION_IDLE_MS / 1000;
    reply.header(
      'set-cookie',
      sessionCookie(sessionId, options.cookieSecure, Math.min(maxAge, SESSION_IDLE_MS / 1000)),
    );
  };
  const clearSession = (reply: FastifyReply) => reply.header('set-cookie', sessionCookie('', options.cookieSecure, 0));

  const tooMany = (request: FastifyRequest, reply: FastifyReply, err: TooManyAttempts) => {
    reply.header('retry-after', String(err.retryAfterSeconds));
    return sendError(request, reply, 429, err.code, err.message, err.details);
  };

  app.post(
    '/api/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Admin sign-in: sets the session cookie',
        body: loginBodySchema,
        response: { 200: authUserResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        const { sessionId, user } = await getAuth().login(request.body.email, request.body.password, clientOf(request));
        setSession(reply, sessionId);
        return { user };
      } catch (err) {
        if (err instanceof TooManyAttempts) return tooMany(request, reply, err);
        throw err;
      }
    },
  );

  app.post(
    '/api/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Admin sign-out: ends the session on the server and clears the cookie',
        response: { 200: logoutResponseSchema, 500: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      await getAuth().logout(readCookie(request.headers.cookie, adminSessionCookie), clientOf(request));
      clearSession(reply);
      reply.header('cache-control', 'no-store');
      return { success: true as const };
    },
  );

  app.get(
    '/api/auth/me',
    {
      schema: {
        tags: ['auth'],
        summary: 'The signed-in admin (401 when there is no live session)',
        response: { 200: authUserResponseSchema, 401: errorEnvelopeSchema, 500: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const sessionId = readCookie(request.headers.cookie, adminSessionCookie);
      try {
        const admin = await getAuth().verifySessionId(sessionId);
        // Sliding renewal reaches the browser too: the cookie lives as long as the session.
        setSession(reply, sessionId!, new Date(admin.expiresAt));
        return { user: { email: admin.email, name: admin.name, role: admin.role } };
      } catch (err) {
        if (sessionId) clearSession(reply);
        throw err;
      }
    },
  );
}
