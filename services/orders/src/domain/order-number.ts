// Human-readable order numbers: a prefix naming the item (CC- challenge coin, PT- patch, TS- tactical
// shirt) and 8 characters from an alphabet without look-alikes (no 0/O, no 1/I), drawn with node:crypto.
// 32^8 (about 10^12) numbers per prefix: collisions are rare, and the unique index plus a retry settle
// the ones that happen.
import { randomBytes } from 'node:crypto';
import type { ItemType } from '@shop/contracts';

/** 32 symbols exactly, so `byte & 31` picks each with the same chance (no modulo bias). */
export const orderNumberAlphabet = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const orderNumberPrefixes: Record<ItemType, string> = { coin: 'CC', patch: 'PT', shirt: 'TS' };
export const orderNumberLength = 8;
export const orderNumberPattern = /^(CC|PT|TS)-[2-9A-HJ-NP-Z]{8}$/;

export function newOrderNumber(itemType: ItemType, random: (n: number) => Buffer = randomBytes): string {
  let code = '';
  for (const byte of random(orderNumberLength)) code += orderNumberAlphabet[byte & 31];
  return `${orderNumberPrefixes[itemType]}-${code}`;
}
