import { describe, expect, it } from 'vitest';
import { customizerPrice } from '../src/index.js';

describe('customizerPrice (storefront §9)', () => {
  it('is base price x quantity for plain options', () => {
    expect(customizerPrice({ itemType: 'coin', size: '1 inch', material: 'Brass', quantity: 1 })).toBe(25.99);
    expect(customizerPrice({ itemType: 'patch', size: '2 inch', material: 'PVC', quantity: 3 })).toBe(38.97);
    expect(customizerPrice({ itemType: 'shirt', size: 'M', material: 'Ripstop', quantity: 2 })).toBe(79.98);
  });

  it('multiplies a 2 inch coin by 1.5 and a 5 inch patch by 1.3', () => {
    expect(customizerPrice({ itemType: 'coin', size: '2 inch', material: 'Brass', quantity: 10 })).toBe(389.85);
    expect(customizerPrice({ itemType: 'coin', size: '1.5 inch', material: 'Brass', quantity: 10 })).toBe(259.9);
    expect(customizerPrice({ itemType: 'patch', size: '5 inch', material: 'Woven', quantity: 10 })).toBe(168.87);
  });

  it('adds $5 once per order for XXL and XXXL shirts', () => {
    expect(customizerPrice({ itemType: 'shirt', size: 'XXL', material: 'Ripstop', quantity: 4 })).toBe(164.96);
    expect(customizerPrice({ itemType: 'shirt', size: 'XXXL', material: 'Ripstop', quantity: 1 })).toBe(44.99);
    expect(customizerPrice({ itemType: 'shirt', size: 'XL', material: 'Ripstop', quantity: 1 })).toBe(39.99);
  });

  it('adds $10 once per order for Performance or Leather materials, after the size rules', () => {
    expect(customizerPrice({ itemType: 'shirt', size: 'XXL', material: 'Performance Fabric', quantity: 2 })).toBe(
      94.98,
    );
    expect(customizerPrice({ itemType: 'patch', size: '5 inch', material: 'Leather', quantity: 2 })).toBe(43.77);
  });

  it('never prices fewer than one piece', () => {
    expect(customizerPrice({ itemType: 'coin', size: '1 inch', material: 'Brass', quantity: 0 })).toBe(25.99);
    expect(customizerPrice({ itemType: 'coin', size: '1 inch', material: 'Brass', quantity: Number.NaN })).toBe(25.99);
  });
});
