// Inserts a document under a fresh MSG-/RET- reference, trying another one if the unique index says
// the random part was already taken (a duplicate-key error from the insert's transaction).
import { makeReference, type ReferencePrefix } from '../domain/reference.js';

const isDuplicateReference = (err: unknown) =>
  (err as { code?: number })?.code === 11000 && /reference/.test(String((err as Error).message));

export async function insertWithReference<T>(
  prefix: ReferencePrefix,
  now: Date,
  insert: (reference: string) => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await insert(makeReference(prefix, now));
    } catch (err) {
      if (attempt < 4 && isDuplicateReference(err)) continue;
      throw err;
    }
  }
}
