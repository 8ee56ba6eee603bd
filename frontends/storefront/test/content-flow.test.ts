// The site content in the guided flow (issue 15): the estimate with the content's price list and the
// design methods its switches allow.
import { describe, expect, it } from 'vitest';
import { catalog, defaultPriceList, estimatedTotal } from '@shop/contracts';
import { customizerItemOf, draftPrice, initialDraft } from '../src/customizer/model.js';
import { buildOrderBody, initialOrderForm, orderEstimate } from '../src/flow/model.js';
import { offeredMethods } from '../src/flow/Steps.js';

const on = { manualDesignEnabled: true, fileUploadEnabled: true };
const values = (list: Array<{ value: string }>) => list.map((m) => m.value);

describe('the flow with the site content', () => {
  it("estimates with the content's basePrice, the catalog's only before the content has loaded", () => {
    const form = { ...initialOrderForm(), itemType: 'coin' as const, quantity: 120 };
    const prices = { ...defaultPriceList, coin: 13.37 };
    expect(orderEstimate(form, prices)).toBe(estimatedTotal('coin', 120, 13.37));
    expect(orderEstimate(form, prices)).not.toBe(orderEstimate(form));
    expect(orderEstimate(form)).toBe(estimatedTotal('coin', 120, catalog.coin.basePrice));
    const body = buildOrderBody(
      { ...form, designMethod: 'describe', size: '1.75', finish: 'antique_gold', colors: ['Gold'] },
      [],
      prices,
    );
    expect(body.estimatedTotal).toBe(estimatedTotal('coin', 120, 13.37));
  });

  it("prices the customizer with the content's basePrice", () => {
    const item = customizerItemOf('patch', { ...defaultPriceList, patch: 9.5 });
    expect(item.basePrice).toBe(9.5);
    const draft = { ...initialDraft('patch'), quantity: 10 };
    expect(draftPrice(item.id, draft, item.basePrice)).not.toBe(draftPrice(item.id, draft));
    expect(customizerItemOf('patch').basePrice).toBe(catalog.patch.basePrice);
  });

  it('offers the design methods the switches allow', () => {
    expect(values(offeredMethods(null, on))).toEqual(['upload', 'describe', 'team']);
    expect(values(offeredMethods(null, undefined))).toEqual(['upload', 'describe', 'team']);
    expect(values(offeredMethods(null, { ...on, fileUploadEnabled: false }))).toEqual(['describe', 'team']);
    expect(values(offeredMethods(null, { ...on, manualDesignEnabled: false }))).toEqual([]);
    expect(values(offeredMethods('ai', { ...on, manualDesignEnabled: false }))).toEqual(['ai']);
    expect(values(offeredMethods('ai', on))).toEqual(['upload', 'describe', 'team', 'ai']);
  });
});
