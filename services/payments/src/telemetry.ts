// Imported first by main.ts: OpenTelemetry must be running before fastify, mongoose and pino load.
// Reads its one env var directly so it does not pull in the rest of the service.
import { startTelemetry } from '@shop/service-kit/telemetry';

startTelemetry('payments', { otlpEndpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT });
