// The tax table by shipping state (issue 6): each of the 50 states and DC has its base rate as a
// fraction, states without sales tax and tax-exempt, foreign and APO/FPO orders pay none, and the basis
// says why.
import { describe, expect, it } from 'vitest';
import { taxRateResultSchema, usStates } from '@shop/contracts';
import { stateCodeOf, stateSalesTaxRates, taxRateFor } from '../src/domain/tax.js';

describe('the tax table', () => {
  it('has a rate for every state of the address form and DC, and nothing else', () => {
    expect(Object.keys(stateSalesTaxRates).sort()).toEqual([...usStates.map((s) => s.code), 'DC'].sort());
    for (const [code, rate] of Object.entries(stateSalesTaxRates)) {
      expect(rate, code).toBeGreaterThanOrEqual(0);
      // Base state rates are all below 8%: a rate given in percent (6.25) instead of a fraction is caught.
      expect(rate, code).toBeLessThan(0.08);
    }
  });

  it('charges no sales tax in the five states without one', () => {
    const none = Object.entries(stateSalesTaxRates)
      .filter(([, rate]) => rate === 0)
      .map(([code]) => code)
      .sort();
    expect(none).toEqual(['AK', 'DE', 'MT', 'NH', 'OR']);
    expect(taxRateFor({ state: 'OR', country: 'US', taxExempt: false })).toEqual({
      taxRate: 0,
      basis: 'Oregon (OR) has no state sales tax',
    });
  });

  it('gives the state base rate as a fraction, with the percent in the basis', () => {
    expect(taxRateFor({ state: 'TX', country: 'US', taxExempt: false })).toEqual({
      taxRate: 0.0625,
      basis: 'Texas (TX) state sales tax 6.25%',
    });
    expect(taxRateFor({ state: 'CA', country: 'US', taxExempt: false })).toEqual({
      taxRate: 0.0725,
      basis: 'California (CA) state sales tax 7.25%',
    });
    expect(taxRateFor({ state: 'VA', country: 'US', taxExempt: false }).taxRate).toBe(0.053);
    expect(taxRateFor({ state: 'MN', taxExempt: false })).toEqual({
      taxRate: 0.06875,
      basis: 'Minnesota (MN) state sales tax 6.875%',
    });
    expect(taxRateFor({ state: 'DC', country: 'US', taxExempt: false }).taxRate).toBe(0.06);
    for (const code of Object.keys(stateSalesTaxRates)) {
      expect(taxRateResultSchema.parse(taxRateFor({ state: code, country: 'US', taxExempt: false })).taxRate).toBe(
        stateSalesTaxRates[code as 'TX'],
      );
    }
  });

  it('reads the free-text state of the address form: code or name, any case and spacing', () => {
    expect(stateCodeOf(' tx ')).toBe('TX');
    expect(stateCodeOf('Texas')).toBe('TX');
    expect(stateCodeOf('new   york')).toBe('NY');
    expect(stateCodeOf('District of Columbia')).toBe('DC');
    expect(stateCodeOf('Narnia')).toBeUndefined();
    expect(taxRateFor({ state: 'north carolina', country: 'USA', taxExempt: false }).taxRate).toBe(0.0475);
    expect(taxRateFor({ state: 'Narnia', country: 'US', taxExempt: false })).toEqual({
      taxRate: 0,
      basis: 'Unknown state "Narnia": no sales tax applied',
    });
  });

  it('charges no tax on tax-exempt (military) orders, whatever the state', () => {
    expect(taxRateFor({ state: 'CA', country: 'US', taxExempt: true })).toEqual({
      taxRate: 0,
      basis: 'Tax-exempt military order',
    });
  });

  it('charges no US sales tax outside the US', () => {
    expect(taxRateFor({ state: 'ON', country: 'Canada', taxExempt: false })).toEqual({
      taxRate: 0,
      basis: 'Shipped outside the US (Canada): no US sales tax',
    });
    // The storefront sends the ISO code; older orders say "Canada".
    expect(taxRateFor({ state: 'NS', country: 'CA', taxExempt: false })).toEqual({
      taxRate: 0,
      basis: 'Shipped outside the US (Canada): no US sales tax',
    });
    // A Canadian province code that is also a US state code is still Canada.
    expect(taxRateFor({ state: 'PA', country: 'Canada', taxExempt: false }).taxRate).toBe(0);
  });

  it('charges no state sales tax to APO/FPO military addresses (AA, AE, AP)', () => {
    for (const code of ['AA', 'AE', 'AP', 'ae']) {
      const result = taxRateFor({ state: code, country: 'US', taxExempt: false });
      expect(result.taxRate, code).toBe(0);
      expect(result.basis, code).toMatch(
        /^APO\/FPO military address \(A[AEP], Armed Forces (Americas|Europe|Pacific)\): no state sales tax$/,
      );
    }
  });

  it('charges nothing when the order has no shipping state', () => {
    expect(taxRateFor({ taxExempt: false })).toEqual({
      taxRate: 0,
      basis: 'No shipping state on the order: no sales tax applied',
    });
    expect(taxRateFor({ state: '  ', country: 'US', taxExempt: false }).taxRate).toBe(0);
  });
});
