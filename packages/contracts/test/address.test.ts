// Shipping addresses per country (issue 10): Canada's provinces and postal codes, one country code form
// (ISO "US" / "CA") and older records that still say "Canada".
import { describe, expect, it } from 'vitest';
import {
  addressIssues,
  canadianProvinces,
  countryCodeOf,
  countryName,
  normalizePostalCode,
  orderRequestSchema,
  regionsByCountry,
  shippingAddressSchema,
  sizeLabel,
  trackingProgressPercent,
  type OrderRequest,
} from '../src/index.js';

const body: OrderRequest = {
  customerName: 'Jane Doe',
  email: 'jane@example.com',
  itemType: 'coin',
  designMethod: 'describe',
  description: 'Unit crest with the motto',
  quantity: 50,
  size: '2',
  colors: ['Gold'],
  finish: 'antique_gold',
  shippingAddress: { line1: '1 Barrington St', city: 'Halifax', state: 'NS', postalCode: 'B3H 1A1', country: 'CA' },
};

function addressProblems(address: Record<string, unknown>): Record<string, string> {
  const result = orderRequestSchema.safeParse({ ...body, shippingAddress: address });
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('countries', () => {
  it('one code form: US and CA, older names read as the code', () => {
    expect(['US', 'usa', 'United States', 'CA', 'Canada', ' canada '].map(countryCodeOf)).toEqual([
      'US',
      'US',
      'US',
      'CA',
      'CA',
      'CA',
    ]);
    expect(countryCodeOf('Mexico')).toBeUndefined();
    expect(countryName('CA')).toBe('Canada');
    expect(countryName('Canada')).toBe('Canada');
    expect(countryName('US')).toBe('United States');
  });

  it('offers the 13 provinces and territories for Canada', () => {
    expect(canadianProvinces).toHaveLength(13);
    expect(regionsByCountry.CA.map((r) => r.code)).toContain('NS');
    expect(regionsByCountry.US).toHaveLength(50);
  });
});

describe('order request addresses (the orders service parses these)', () => {
  it('accepts a Canadian address with a province and an A1A 1A1 postal code', () => {
    expect(addressProblems(body.shippingAddress!)).toEqual({});
    expect(addressProblems({ ...body.shippingAddress, postalCode: 'b3h1a1' })).toEqual({});
  });

  it('refuses "Halifax, AL" in Canada and a ZIP code there', () => {
    expect(addressProblems({ ...body.shippingAddress, state: 'AL' })).toEqual({
      'shippingAddress.state':
        'Province must be one of the Canadian provinces or territories (two-letter code, e.g. NS)',
    });
    expect(addressProblems({ ...body.shippingAddress, postalCode: '36104' })).toEqual({
      'shippingAddress.postalCode': 'Postal code must be a Canadian postal code (A1A 1A1)',
    });
    // Letters Canada Post does not use (D, F, I, O, Q, U; W and Z never first).
    expect(addressProblems({ ...body.shippingAddress, postalCode: 'D1A 1A1' })).toHaveProperty([
      'shippingAddress.postalCode',
    ]);
  });

  it('checks US ZIP codes and states', () => {
    const us = { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' };
    expect(addressProblems(us)).toEqual({});
    expect(addressProblems({ ...us, postalCode: '78701-1234' })).toEqual({});
    expect(addressProblems({ ...us, postalCode: 'K1A 0B1' })).toEqual({
      'shippingAddress.postalCode': 'ZIP code must be 5 digits, or ZIP+4 (12345 or 12345-6789)',
    });
    expect(addressProblems({ ...us, state: 'NS' })).toEqual({
      'shippingAddress.state': 'State must be one of the 50 US states (two-letter code, e.g. TX)',
    });
    expect(addressProblems({ ...us, country: 'Mexico' })).toEqual({
      'shippingAddress.country': 'Country must be US or Canada',
    });
  });

  it('still accepts the older "Canada" and stores the code', () => {
    const parsed = orderRequestSchema.parse({
      ...body,
      shippingAddress: { ...body.shippingAddress, country: 'Canada' },
    });
    expect(parsed.shippingAddress?.country).toBe('CA');
  });

  it('addresses in events written before the codes still parse (the event schema reads them)', () => {
    expect(
      shippingAddressSchema.parse({
        line1: '1 Rue',
        city: 'Québec',
        state: 'Quebec',
        postalCode: 'G1R 4P5',
        country: 'Canada',
      }).country,
    ).toBe('CA');
  });

  it('writes Canadian postal codes the standard way', () => {
    expect(normalizePostalCode('CA', ' k1a0b1 ')).toBe('K1A 0B1');
    expect(normalizePostalCode('US', ' 78701 ')).toBe('78701');
    expect(addressIssues({ state: '', postalCode: '', country: 'CA' })).toEqual([]);
  });
});

describe('what a tracker reads', () => {
  it('places statuses around the five steps on the bar; cancelled stays at 0%', () => {
    expect(trackingProgressPercent('paid')).toBe(30);
    expect(trackingProgressPercent('quote_sent')).toBe(20);
    expect(trackingProgressPercent('shipped')).toBe(90);
    expect(trackingProgressPercent('cancelled')).toBe(0);
  });

  it('names sizes with their unit', () => {
    expect(sizeLabel('coin', '2')).toBe('Large (2")');
    expect(sizeLabel('coin', '1.25')).toBe('Mini (1.25")');
    expect(sizeLabel('patch', 'custom')).toBe('Custom size');
    expect(sizeLabel('shirt', 'M')).toBe('M');
  });
});
