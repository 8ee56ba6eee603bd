// Starts the orders service: `node services/orders/dist/main.js`. Telemetry first; the app is loaded
// with a dynamic import so it is evaluated only after the instrumentations are in place.
import './telemetry.js';

const { buildApp } = await import('./app.js');
let service;
try {
  service = await buildApp();
} catch (err) {
  // Bad configuration: say what is wrong and stop, without a stack trace in the way.
  console.error(`orders service cannot start: ${(err as Error).message}`);
  process.exit(1);
}
await service.run();
