// Sorting with MongoDB's rules: BSON type order, dotted paths, and arrays sorting by their smallest
// element ascending and their largest descending. Stable, so ties keep natural (insertion) order.
import type { Document } from 'bson';
import { compareValues, isNumeric, numberOf, isPlainObject } from './bson-values.js';
import { collectPath } from './query.js';
import { MongoCommandError } from './types.js';
import { notSupported } from './errors.js';

export interface SortKey {
  path: string;
  segs: string[];
  dir: 1 | -1;
}

export const parseSort = (sort: Document | undefined | null): SortKey[] => {
  if (!sort || !isPlainObject(sort)) return [];
  return Object.keys(sort).map((path) => {
    const d = sort[path];
    if (isPlainObject(d) && '$meta' in d) throw notSupported(`sorting by {$meta: "${String(d.$meta)}"}`);
    if (!isNumeric(d) || (numberOf(d) !== 1 && numberOf(d) !== -1)) {
      throw new MongoCommandError(
        15975,
        'Location15975',
        '$sort key ordering must be 1 (for ascending) or -1 (for descending)',
      );
    }
    return { path, segs: path.split('.'), dir: numberOf(d) === 1 ? 1 : -1 };
  });
};

const sortValue = (doc: Document, key: SortKey): unknown => {
  let best: unknown;
  let found = false;
  const consider = (v: unknown) => {
    if (!found) {
      best = v;
      found = true;
      return;
    }
    const c = compareValues(v, best);
    if ((key.dir === 1 && c < 0) || (key.dir === -1 && c > 0)) best = v;
  };
  for (const c of collectPath(doc, key.segs)) {
    if (Array.isArray(c.value)) {
      if (c.value.length === 0) consider(undefined);
      for (const el of c.value) consider(el);
    } else consider(c.value === undefined ? null : c.value);
  }
  return found ? best : null;
};

export const sortDocs = <T extends Document>(docs: T[], keys: SortKey[]): T[] => sortBy(docs, keys, (d) => d);

/** Stable sort of any items by the sort keys of the document each one carries. */
export const sortBy = <T>(docs: T[], keys: SortKey[], docOf: (item: T) => Document): T[] => {
  if (keys.length === 0) return docs;
  if (keys.length === 1 && keys[0].path === '$natural') return keys[0].dir === 1 ? docs : [...docs].reverse();
  const decorated = docs.map((d, i) => ({ d, i, k: keys.map((key) => sortValue(docOf(d), key)) }));
  decorated.sort((a, b) => {
    for (let j = 0; j < keys.length; j++) {
      const c = compareValues(a.k[j], b.k[j]);
      if (c) return c * keys[j].dir;
    }
    return a.i - b.i;
  });
  return decorated.map((x) => x.d);
};
