// Test helpers: temp data directories and a reference model that applies JournalOps the way an engine would.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EJSON, type Document } from 'bson';
import type { JournalOp } from '../../src/engine/types.js';

export async function tempDir(prefix = 'em-durability-'): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

/** A copy of the directory as it is on disk now: what a process killed at this moment leaves behind. */
export async function crashCopy(dir: string): Promise<string> {
  const copy = await tempDir('em-crash-copy-');
  await fs.cp(dir, copy, { recursive: true });
  return copy;
}

export async function journalFiles(dir: string): Promise<string[]> {
  return (await fs.readdir(dir)).filter((name) => name.startsWith('journal-')).sort();
}

const key = (value: unknown) => EJSON.stringify({ v: value }, { relaxed: false });

/** Databases -> collections -> documents by _id, plus options and indexes: enough to compare states. */
export class Model {
  collections = new Map<string, { options: Document; indexes: Map<string, Document>; docs: Map<string, Document> }>();

  private coll(db: string, coll: string) {
    const ns = `${db}.${coll}`;
    let entry = this.collections.get(ns);
    if (!entry) {
      entry = { options: {}, indexes: new Map(), docs: new Map() };
      this.collections.set(ns, entry);
    }
    return entry;
  }

  apply(ops: Iterable<JournalOp>): this {
    for (const op of ops) {
      switch (op.op) {
        case 'createCollection':
          this.coll(op.db, op.coll).options = op.options;
          break;
        case 'dropCollection':
          this.collections.delete(`${op.db}.${op.coll}`);
          break;
        case 'dropDatabase':
          for (const ns of [...this.collections.keys()]) if (ns.startsWith(`${op.db}.`)) this.collections.delete(ns);
          break;
        case 'collMod':
          this.coll(op.db, op.coll).options = { ...this.coll(op.db, op.coll).options, ...op.options };
          break;
        case 'createIndex':
          this.coll(op.db, op.coll).indexes.set(op.spec.name, op.spec);
          break;
        case 'dropIndex':
          this.coll(op.db, op.coll).indexes.delete(op.name);
          break;
        case 'put':
          this.coll(op.db, op.coll).docs.set(key(op.doc._id), op.doc);
          break;
        case 'delete':
          this.coll(op.db, op.coll).docs.delete(key(op.id));
          break;
      }
    }
    return this;
  }

  /** The ops that rebuild this state, as an engine's dump would produce them. */
  *dump(): Generator<JournalOp> {
    for (const [ns, entry] of this.collections) {
      const [db, coll] = [ns.slice(0, ns.indexOf('.')), ns.slice(ns.indexOf('.') + 1)];
      yield { op: 'createCollection', db, coll, options: entry.options };
      for (const spec of entry.indexes.values()) yield { op: 'createIndex', db, coll, spec: spec as never };
      for (const doc of entry.docs.values()) yield { op: 'put', db, coll, doc };
    }
  }

  /** Canonical text of the state (Extended JSON keeps BSON types apart), for exact comparison. */
  canonical(): string {
    const out: Document = {};
    for (const ns of [...this.collections.keys()].sort()) {
      const entry = this.collections.get(ns)!;
      out[ns] = {
        options: entry.options,
        indexes: [...entry.indexes.keys()].sort().map((name) => entry.indexes.get(name)),
        docs: [...entry.docs.keys()].sort().map((id) => entry.docs.get(id)),
      };
    }
    return EJSON.stringify(out, { relaxed: false });
  }
}
