// The benchmark's server process: the embedded server alone in its own process, as `npm start` runs it, so the
// client (mongoose) and the server each get a core. Prints one JSON line when ready; SIGTERM stops it.
import { startEmbeddedMongo } from '../src/index.js';

const dbPath = process.env.EMBEDDED_MONGO_DBPATH || undefined;
const server = await startEmbeddedMongo({ port: 0, dbPath });
process.stdout.write(`${JSON.stringify({ uri: server.uri })}\n`);
const stop = () => void server.stop().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
