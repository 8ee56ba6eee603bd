// npm run faults (root) -> npm run faults -w load-tests: the full fault suite, a table at the end.
//   npm run faults -- --fault "kill orders" --fault "pause nats 10 s"   only those
//   npm run faults -- --short                                          the CI selection
//   npm run faults -- --json results.json                              also the rows as JSON
// Exits 1 when any fault lost, duplicated or failed to deliver work, or the shop did not come back.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ALL_FAULTS, SHORT_FAULTS, resultsTable, runFaultSuite } from './suite.js';

const { values } = parseArgs({
  options: {
    fault: { type: 'string', multiple: true },
    short: { type: 'boolean', default: false },
    json: { type: 'string' },
    'steady-ms': { type: 'string' },
    workers: { type: 'string' },
  },
});

const chosen = values.fault?.length
  ? ALL_FAULTS.filter((fault) => values.fault!.includes(fault.name))
  : values.short
    ? SHORT_FAULTS
    : ALL_FAULTS;
const unknown = (values.fault ?? []).filter((name) => !ALL_FAULTS.some((fault) => fault.name === name));
if (unknown.length) {
  console.error(
    `Unknown fault(s): ${unknown.join(', ')}. Known: ${ALL_FAULTS.map((fault) => `"${fault.name}"`).join(', ')}`,
  );
  process.exit(2);
}

const result = await runFaultSuite({
  faults: chosen,
  steadyMs: values['steady-ms'] ? Number(values['steady-ms']) : undefined,
  workers: values.workers ? Number(values.workers) : undefined,
});
console.log(`\n${resultsTable(result.rows)}\n`);
console.log(
  `shop started in ${(result.startMs / 1000).toFixed(1)} s; whole run ${(result.totalMs / 1000).toFixed(1)} s`,
);
if (values.json) writeFileSync(values.json, JSON.stringify(result, null, 2));
const failed = result.rows.filter((row) => row.lost || row.duplicates || row.undelivered || row.recoveryMs === null);
if (failed.length) {
  console.error(`\nFAILED: ${failed.map((row) => row.fault).join(', ')}`);
  process.exit(1);
}
