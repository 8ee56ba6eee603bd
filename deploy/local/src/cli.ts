// The local runner behind `npm start` and `npm run dev` (bin/shop.mjs builds first, then runs this with tsx).
import { join } from 'node:path';
import { FRONTENDS } from './catalogue.js';
import { paint } from './logs.js';
import { NatsServerMissingError } from './nats.js';
import { readinessTable } from './readiness.js';
import { REPO_ROOT, redactUrl, startStack, type Stack } from './stack.js';

const mode = process.argv[2] === 'dev' ? 'dev' : 'start';
const launchedAt = Number(process.env.SHOP_LAUNCHED_AT) || Date.now();
const runnerStartedAt = Date.now();

function gatewayPort(): number {
  const raw = process.env.PORT ?? '8080';
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be a TCP port number (0-65535, 0 picks a free one), got "${raw}"`);
    process.exit(2);
  }
  return port;
}

let stack: Stack | undefined;
let stopping: Promise<void> | undefined;
let firstSignalAt = 0;

function shutdown(signal: NodeJS.Signals): void {
  const now = Date.now();
  if (!stack) {
    // Still starting: the exit handler of startStack kills every process group it spawned.
    console.error(`\n${signal} while starting: stopping what was started.`);
    process.exit(130);
  }
  if (stopping) {
    // npm and the terminal may both deliver one Ctrl-C; only a later, deliberate one forces.
    if (now - firstSignalAt > 1_500) {
      console.error('Forced stop: killing every process group now.');
      for (const child of stack.children()) child.killNow();
      process.exit(130);
    }
    return;
  }
  firstSignalAt = now;
  console.log(`\n${signal}: stopping everything (Ctrl-C again to force)...`);
  stopping = stack.stop().then(
    () => {
      console.log('stopped: every part has exited.');
      process.exit(0);
    },
    (error: unknown) => {
      console.error('stop failed:', error);
      process.exit(1);
    },
  );
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(signal));

async function main(): Promise<void> {
  const port = gatewayPort();
  console.log(
    `starting the shop (${mode}): MongoDB, NATS, 7 services, the gateway${mode === 'dev' ? ', 3 dev servers' : ''}...`,
  );
  stack = await startStack({
    mode,
    port,
    dataDir: join(REPO_ROOT, '.data'),
    defaultPorts: true,
    // Your own NODE_ENV wins (production needs ADMIN_EMAIL/ADMIN_PASSWORD and HTTPS for the session cookie).
    nodeEnv: process.env.NODE_ENV || undefined,
    onCrash: (name, exit, lines) => {
      const banner = `!!! ${name} EXITED (code ${exit.code ?? '-'}, signal ${exit.signal ?? '-'}). The runner restarts it with back-off; the rest keeps running.`;
      console.error('\n' + paint(banner, 41));
      for (const line of lines.slice(-15)) console.error(paint(`  [${name}] ${line}`, 31));
    },
  });

  const web = stack.url;
  console.log('\n' + readinessTable(stack.readiness));
  console.log('\nOpen:');
  if (mode === 'dev') {
    console.log(`  shop (hot reload)  ${stack.frontends.shell}/`);
    for (const app of FRONTENDS.filter((name) => name !== 'shell'))
      console.log(`  ${app} dev server ${stack.frontends[app]}/`);
    console.log(`  built shop         ${web}/`);
  } else {
    console.log(`  shop          ${web}/`);
    console.log(`  admin         ${web}/admin`);
  }
  console.log(`  health        ${web}/api/health`);
  console.log(`  API docs      ${web}/api/docs`);
  console.log(
    `  MongoDB       ${redactUrl(stack.mongoUrl)} (${stack.infrastructure.mongo}${stack.infrastructure.mongo === 'embedded' ? ', data in .data/mongo' : ''})`,
  );
  console.log(
    `  NATS          ${stack.natsUrl} (${stack.infrastructure.nats}${stack.infrastructure.nats === 'started' ? ', JetStream store in .data/nats' : ''})`,
  );
  if (stack.mailbox) {
    console.log(
      `  mail          ${web}/api/debug/mailbox (signed in as admin; local SMTP ${stack.mailbox.smtpUrl}: nothing is delivered; set SMTP_URL for real mail)`,
    );
  }
  const total = ((Date.now() - launchedAt) / 1000).toFixed(1);
  const own = ((Date.now() - runnerStartedAt) / 1000).toFixed(1);
  console.log(paint(`\nall ready in ${own} s (${total} s since the command started). Ctrl-C stops everything.`, 32));
}

main().catch((error: unknown) => {
  if (error instanceof NatsServerMissingError) {
    console.error(paint(error.message, 31));
    process.exit(3);
  }
  console.error(paint(`could not start the shop: ${error instanceof Error ? error.message : String(error)}`, 31));
  process.exit(1);
});
