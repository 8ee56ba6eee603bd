import { describe, expect, it } from 'vitest';
import {
  generateDesignRequestSchema,
  isCustomizerOrder,
  orderRequestSchema,
  uploadIdFromUrl,
  type OrderRequest,
} from '../src/index.js';

const body: OrderRequest = {
  customerName: 'Jane Doe',
  email: ' jane@example.com ',
  itemType: 'shirt',
  designMethod: 'describe',
  description: 'Unit crest on the chest',
  quantity: 3,
  sizeBreakdown: { M: 2, L: 1 },
  colors: ['Black'],
  finish: 'cotton',
  shippingAddress: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
};

describe('orderRequestSchema', () => {
  it('accepts a guided-flow shirt order and fills the defaults', () => {
    const parsed = orderRequestSchema.parse(body);
    expect(parsed).toMatchObject({
      email: 'jane@example.com',
      files: [],
      features: [],
      customerCategory: 'general',
      aiGenerated: false,
    });
    expect(parsed.shippingAddress).toMatchObject({ line2: '', country: 'US' });
  });

  it('reports the cross-field rules with their fields', () => {
    const result = orderRequestSchema.safeParse({ ...body, quantity: 4, colors: [], description: 'abc' });
    expect(result.success).toBe(false);
    const byField = Object.fromEntries(result.error!.issues.map((i) => [i.path.join('.'), i.message]));
    expect(byField).toMatchObject({
      quantity: 'Quantity must equal the sum of the shirt size counts (3)',
      colors: 'Please choose at least one color',
      description: 'Description must be at least 5 characters',
    });
  });

  it('recognises the customizer variant by its material', () => {
    expect(isCustomizerOrder({ itemType: 'coin', finish: 'Brass' })).toBe(true);
    expect(isCustomizerOrder({ itemType: 'coin', finish: 'antique_gold' })).toBe(false);
  });
});

describe('small helpers', () => {
  it('reads upload ids back from their urls only', () => {
    expect(uploadIdFromUrl(`/api/upload/${'ab'.repeat(16)}`)).toBe('ab'.repeat(16));
    expect(uploadIdFromUrl('https://elsewhere.example/api/upload/abc')).toBeNull();
  });

  it('checks the AI prompt after trimming', () => {
    expect(generateDesignRequestSchema.safeParse({ prompt: '  abcd  ', itemType: 'coin' }).success).toBe(false);
    expect(generateDesignRequestSchema.parse({ prompt: ' abcde ', itemType: 'coin' })).toEqual({
      prompt: 'abcde',
      itemType: 'coin',
      style: 'military',
    });
  });
});
