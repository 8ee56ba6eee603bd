// Placeholder removed once @shop/service-kit exports the shared envelope.
export function errorEnvelope(error: string, code: string, requestId?: string, details?: unknown) {
  return { error, code, ...(details === undefined ? {} : { details }), ...(requestId ? { requestId } : {}) };
}
