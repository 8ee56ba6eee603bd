// A table of values kept for reuse (shared strings and dates of stored documents, decoded command parts),
// bounded without the bookkeeping of an LRU: when full it starts over, and what was handed out before stays
// valid (the holders keep their copies).
export class BoundedTable<K, V> {
  private entries = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Keeps `value` under `key`, starting over first when the table is full; returns the value. */
  keep(key: K, value: V): V {
    if (this.entries.size >= this.max) this.entries = new Map();
    this.entries.set(key, value);
    return value;
  }
}
