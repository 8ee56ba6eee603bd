// The quote's sales tax, by shipping state (issue 6: "taxRate, a fraction, by shipping state from a table
// in the payments domain; 0 for tax-exempt military orders"). Pure: orders asks for it over NATS when an
// admin applies a quote, and the tests pin it.
//
// The rates are each state's base (statewide) sales-tax rate as published for 2025 (Tax Foundation,
// "State and Local Sales Tax Rates, 2025"); county and city taxes are not included. Where a statewide
// local add-on is mandatory everywhere it is part of the published state rate (California 7.25%,
// Utah 6.10%, Virginia 5.30%). Update the table when a state changes its rate.
import { countryName, usStates, type TaxRateResult } from '@shop/contracts';

export const stateSalesTaxRates = {
  AL: 0.04,
  AK: 0,
  AZ: 0.056,
  AR: 0.065,
  CA: 0.0725,
  CO: 0.029,
  CT: 0.0635,
  DE: 0,
  DC: 0.06,
  FL: 0.06,
  GA: 0.04,
  HI: 0.04,
  ID: 0.06,
  IL: 0.0625,
  IN: 0.07,
  IA: 0.06,
  KS: 0.065,
  KY: 0.06,
  LA: 0.05,
  ME: 0.055,
  MD: 0.06,
  MA: 0.0625,
  MI: 0.06,
  MN: 0.06875,
  MS: 0.07,
  MO: 0.04225,
  MT: 0,
  NE: 0.055,
  NV: 0.0685,
  NH: 0,
  NJ: 0.06625,
  NM: 0.04875,
  NY: 0.04,
  NC: 0.0475,
  ND: 0.05,
  OH: 0.0575,
  OK: 0.045,
  OR: 0,
  PA: 0.06,
  RI: 0.07,
  SC: 0.06,
  SD: 0.042,
  TN: 0.07,
  TX: 0.0625,
  UT: 0.061,
  VT: 0.06,
  VA: 0.053,
  WA: 0.065,
  WV: 0.06,
  WI: 0.05,
  WY: 0.04,
} as const satisfies Record<string, number>;
export type TaxStateCode = keyof typeof stateSalesTaxRates;

/** APO/FPO/DPO "states": Armed Forces Americas, Europe, Pacific. Orders shipped there pay no state sales tax. */
export const militaryPostStates = {
  AA: 'Armed Forces Americas',
  AE: 'Armed Forces Europe',
  AP: 'Armed Forces Pacific',
} as const;

const stateNames: Record<string, string> = {
  ...Object.fromEntries(usStates.map((s) => [s.code, s.name])),
  DC: 'District of Columbia',
};
const codeByName = new Map(Object.entries(stateNames).map(([code, name]) => [name.toLowerCase(), code]));
codeByName.set('washington dc', 'DC');
codeByName.set('washington d.c.', 'DC');
for (const [code, name] of Object.entries(militaryPostStates)) codeByName.set(name.toLowerCase(), code);

/** The address form's state is free text: "TX", "tx", "Texas" and " texas " all mean Texas. */
export function stateCodeOf(state: string): string | undefined {
  const text = state.trim().replace(/\s+/g, ' ');
  if (/^[A-Za-z]{2}$/.test(text)) {
    const code = text.toUpperCase();
    return code in stateSalesTaxRates || code in militaryPostStates ? code : undefined;
  }
  return codeByName.get(text.toLowerCase());
}

/** "US", "USA", "United States" (any case) and no country at all (the form's default) are the US. */
function isUnitedStates(country: string | undefined): boolean {
  if (country === undefined || country.trim() === '') return true;
  return ['us', 'usa', 'u.s.', 'u.s.a.', 'united states', 'united states of america'].includes(
    country.trim().toLowerCase(),
  );
}

const percent = (rate: number) => `${Number((rate * 100).toFixed(4))}%`;

export interface TaxQuestion {
  state?: string | undefined;
  country?: string | undefined;
  taxExempt: boolean;
}

/** The tax rate (a fraction) of an order and why, for the admin who applies the quote. */
export function taxRateFor({ state, country, taxExempt }: TaxQuestion): TaxRateResult {
  if (taxExempt) return { taxRate: 0, basis: 'Tax-exempt military order' };
  // Countries come as ISO codes ("CA" is Canada here, not California): the basis names the country.
  if (!isUnitedStates(country))
    return { taxRate: 0, basis: `Shipped outside the US (${countryName(country)}): no US sales tax` };
  if (!state || state.trim() === '')
    return { taxRate: 0, basis: 'No shipping state on the order: no sales tax applied' };
  const code = stateCodeOf(state);
  if (!code) return { taxRate: 0, basis: `Unknown state "${state.trim()}": no sales tax applied` };
  if (code in militaryPostStates) {
    return {
      taxRate: 0,
      basis: `APO/FPO military address (${code}, ${militaryPostStates[code as keyof typeof militaryPostStates]}): no state sales tax`,
    };
  }
  const rate: number = stateSalesTaxRates[code as TaxStateCode];
  if (rate === 0) return { taxRate: 0, basis: `${stateNames[code]} (${code}) has no state sales tax` };
  return { taxRate: rate, basis: `${stateNames[code]} (${code}) state sales tax ${percent(rate)}` };
}
