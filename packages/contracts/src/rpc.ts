// Core NATS request/reply: every reply is wrapped so the caller can tell an answer from a refusal.
// Subjects are `rpc.<service>.<operation>` and are never captured by a JetStream stream.
import { z } from 'zod';
import type { ServiceName } from './services.js';

export const rpcSubject = (service: ServiceName, operation: string) => `rpc.${service}.${operation}` as const;

export const rpcErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  /** HTTP status the caller should answer with if it passes the refusal on. */
  status: z.number().int().min(400).max(599),
  details: z.unknown().optional(),
});
export type RpcError = z.infer<typeof rpcErrorSchema>;

export const rpcReplySchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: rpcErrorSchema }),
]);
export type RpcReply = z.infer<typeof rpcReplySchema>;
