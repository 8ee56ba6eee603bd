// Durability for @shop/embedded-mongo: a checksummed, group-committed write-ahead journal with background
// snapshots. The engine sees it as the `Journal` of src/engine/types.ts.
export { openJournal, JournalWriteError } from './journal.js';
export type { DurableJournal, JournalOptions, JournalStats } from './journal.js';
export { JournalCorruptError } from './recovery.js';
export type { RecoveryReport } from './recovery.js';
export { DEFAULT_BSON_OPTIONS } from './format.js';
