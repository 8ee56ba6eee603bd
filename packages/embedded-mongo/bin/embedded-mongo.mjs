#!/usr/bin/env node
// embedded-mongo --port 27017 --dbpath .data/mongo [--replset rs0] [--bind_ip 127.0.0.1]
// Runs the embedded MongoDB server in the foreground; SIGTERM/SIGINT stop it cleanly (journal flushed).
import { parseArgs } from 'node:util';

const USAGE = `Usage: embedded-mongo [--port 27017] [--dbpath <dir>] [--replset <name>] [--bind_ip 127.0.0.1]

  --port      TCP port (default 27017; 0 picks a free port)
  --dbpath    data directory for the journal and snapshots (default: in memory, nothing kept)
  --replset   answer as the one-member replica set <name> (enables transactions)
  --bind_ip   interface to listen on (default 127.0.0.1)`;

function fail(message) {
  process.stderr.write(`embedded-mongo: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string', default: '27017' },
      dbpath: { type: 'string' },
      replset: { type: 'string' },
      bind_ip: { type: 'string', default: '127.0.0.1' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }));
} catch (error) {
  fail(error.message);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port must be a number from 0 to 65535, got '${values.port}'`);

const { startEmbeddedMongo } = await import('../dist/index.js').catch((error) => {
  if (error.code === 'ERR_MODULE_NOT_FOUND') {
    fail('the package is not built: run `npm run build -w packages/embedded-mongo` first');
  }
  throw error;
});

const log = (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
let server;
let stopRequested;

async function shutdown(signal) {
  if (stopRequested) return;
  stopRequested = signal;
  // A signal during start-up is handled once the server is up (see below).
  if (!server) return;
  log(`${signal} received, stopping`);
  try {
    await server.stop();
    log('stopped');
    process.exit(0);
  } catch (error) {
    process.stderr.write(`embedded-mongo: error while stopping: ${error.message}\n`);
    process.exit(1);
  }
}
// Registered before "ready" is printed: whoever waits for that line may signal right away.
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

try {
  server = await startEmbeddedMongo({
    port,
    host: values.bind_ip,
    dbPath: values.dbpath,
    replSet: values.replset,
    argv: process.argv.slice(1),
    log,
  });
} catch (error) {
  process.stderr.write(`embedded-mongo: could not start: ${error.message}\n`);
  process.exit(1);
}
if (stopRequested) {
  const signal = stopRequested;
  stopRequested = undefined;
  await shutdown(signal);
} else {
  log(`ready: ${server.uri}${values.dbpath ? ` (data in ${values.dbpath})` : ' (in memory)'}`);
}
