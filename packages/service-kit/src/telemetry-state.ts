// Holds the running telemetry handle without importing the SDK, so `@shop/service-kit` stays light
// and graceful shutdown can still flush spans when telemetry was started.
export interface Telemetry {
  exporting: boolean;
  shutdown(): Promise<void>;
}

let running: Telemetry | undefined;

export function setCurrentTelemetry(t: Telemetry | undefined) {
  running = t;
}

/** The process-wide telemetry, if `startTelemetry` ran. */
export function currentTelemetry(): Telemetry | undefined {
  return running;
}
