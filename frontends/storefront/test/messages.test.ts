import { describe, expect, it } from 'vitest';
import {
  changeQuantity,
  contactMissing,
  customizerOrderBody,
  draftPrice,
  initialDraft,
} from '../src/customizer/model.js';
import { designFileName } from '../src/ai/download.js';
import {
  aiFailureMessage,
  aiPromptProblem,
  cleanVerificationCode,
  customizerFailureMessage,
  fieldProblems,
  orderFailureMessage,
  promptCounterTone,
  uploadFailedMessage,
  verificationCodeProblem,
} from '../src/messages.js';
import { progressPercent, trackingSteps } from '../src/track/model.js';
import { catalog } from '@shop/contracts';

describe('order errors (§8)', () => {
  it('prefixes the server error with a cross mark, defaults without one, generic without an answer', () => {
    expect(orderFailureMessage({ ok: false, networkError: false, data: { error: 'Email is invalid' } })).toBe(
      '❌ Email is invalid',
    );
    expect(orderFailureMessage({ ok: false, networkError: false, data: null })).toBe(
      '❌ Failed to submit order to database',
    );
    expect(orderFailureMessage({ ok: false, networkError: true, data: null })).toBe(
      'Error submitting order. Please try again or contact support.',
    );
    expect(uploadFailedMessage('File too large')).toBe('File upload failed: File too large');
    expect(uploadFailedMessage(null)).toBe('File upload failed: Upload failed');
  });

  it('reads field problems from details', () => {
    expect(fieldProblems([{ field: 'email', message: 'Invalid email' }, 'junk', { message: '' }])).toEqual([
      { field: 'email', message: 'Invalid email' },
    ]);
    expect(fieldProblems({ not: 'a list' })).toEqual([]);
  });

  it('customizer: network, 400, 500 messages', () => {
    expect(customizerFailureMessage({ status: 0, networkError: true, error: 'Failed to fetch' })).toBe(
      'Network error. Please check your internet connection and try again.',
    );
    expect(customizerFailureMessage({ status: 400, networkError: false, error: 'x' })).toBe(
      'Invalid order data. Please check all fields and try again.',
    );
    expect(customizerFailureMessage({ status: 503, networkError: false, error: 'x' })).toBe(
      'Server error. Our team has been notified. Please try again in a few minutes.',
    );
    expect(customizerFailureMessage({ status: 409, networkError: false, error: 'Duplicate' })).toBe('Duplicate');
  });
});

describe('AI generator (§5, §8)', () => {
  it('checks the prompt at 4, 5, 500, 501 characters and the item type', () => {
    expect(aiPromptProblem('abcd', 'coin')).toBe('Please provide a more detailed description (at least 5 characters)');
    expect(aiPromptProblem('   abcd   ', 'coin')).toBe(
      'Please provide a more detailed description (at least 5 characters)',
    );
    expect(aiPromptProblem('abcde', 'coin')).toBeNull();
    expect(aiPromptProblem('a'.repeat(500), 'patch')).toBeNull();
    expect(aiPromptProblem('a'.repeat(501), 'patch')).toBe(
      'Description is too long. Please keep it under 500 characters.',
    );
    expect(aiPromptProblem('an eagle', null)).toBe('Please select a valid item type');
    expect(aiPromptProblem('an eagle', 'mug')).toBe('Please select a valid item type');
  });

  it('maps server failures', () => {
    expect(aiFailureMessage('Invalid request parameters', 400)).toBe(
      'Please check your input: make sure your description is between 5-500 characters and an item type is selected.',
    );
    expect(aiFailureMessage('Billing hard limit reached', 500)).toBe(
      'AI service temporarily unavailable. Please try again later.',
    );
    expect(aiFailureMessage('You exceeded your current quota', 429)).toBe(
      'AI service temporarily unavailable. Please try again later.',
    );
    expect(aiFailureMessage('Prompt rejected', 400)).toBe(
      'Invalid request. Please check your description is detailed enough (at least 5 characters).',
    );
    expect(aiFailureMessage('HTTP error! status: 502', 502)).toBe('Failed to generate design: HTTP error! status: 502');
  });

  it('colours the counter red under 5 and yellow at 500', () => {
    expect([0, 4, 5, 499, 500].map(promptCounterTone)).toEqual(['short', 'short', 'ok', 'ok', 'full']);
  });

  it('names the downloaded file by the image type, jpg by default', () => {
    expect(designFileName('abc123', 'image/svg+xml; charset=utf-8')).toBe('design-abc123.svg');
    expect(designFileName('abc123', null)).toBe('design-abc123.jpg');
    expect(designFileName('../x', 'image/png')).toBe('design-x.png');
  });
});

describe('lookup code (§5)', () => {
  it('keeps digits only, 6 at most, and explains an empty or short code', () => {
    expect(cleanVerificationCode('12a 34-567')).toBe('123456');
    expect(verificationCodeProblem('')).toBe('Please enter the 6-digit verification code from your email');
    expect(verificationCodeProblem('12345')).toBe('Verification code must be 6 digits');
    expect(verificationCodeProblem('123456')).toBeNull();
  });
});

describe('tracking progress (§4)', () => {
  it('counts position from 1 over 5 steps; cancelled shows 0%', () => {
    expect(['pending', 'in_progress', 'design_review', 'production', 'completed'].map(progressPercent)).toEqual([
      20, 40, 60, 80, 100,
    ]);
    expect(progressPercent('cancelled')).toBe(0);
    expect(trackingSteps('design_review').map((s) => s.reached)).toEqual([true, true, true, false, false]);
    expect(trackingSteps('cancelled').some((s) => s.reached)).toBe(false);
  });
});

describe('customizer (§3, §4, §7, §9)', () => {
  it('starts from the first option of each list and quantity 1; quantity never below 1', () => {
    expect(initialDraft('patch')).toMatchObject({
      size: '2 inch',
      color: 'Full Color',
      material: 'Embroidered',
      quantity: 1,
      text: '',
    });
    expect(changeQuantity(1, -1)).toBe(1);
    expect(changeQuantity(3, -1)).toBe(2);
    expect(changeQuantity(3, 1)).toBe(4);
  });

  it('needs first name, last name and email', () => {
    expect(contactMissing({ firstName: 'A', lastName: 'B', email: '' })).toBe(true);
    expect(contactMissing({ firstName: 'A', lastName: 'B', email: 'a@b.co' })).toBe(false);
  });

  it('sends the reduced order: one colour in a list, finish = material, no files, the customizer price', () => {
    const draft = {
      ...initialDraft('coin'),
      size: '2 inch',
      color: 'Black Nickel',
      material: 'Copper',
      quantity: 10,
      text: 'ALWAYS READY',
      firstName: 'Ann',
      lastName: 'Lee',
      email: 'ann@example.com',
    };
    const body = customizerOrderBody(catalog.coin, draft, 'eagle over anchor');
    expect(body).toMatchObject({
      customerName: 'Ann Lee',
      itemType: 'coin',
      designMethod: 'ai',
      aiGenerated: true,
      quantity: 10,
      size: '2 inch',
      colors: ['Black Nickel'],
      finish: 'Copper',
      files: [],
      estimatedTotal: 389.85,
    });
    expect(body.description).toBe('Custom Challenge Coins: eagle over anchor. Text: "ALWAYS READY"');
    expect(draftPrice('shirt', { size: 'XXXL', material: 'Performance Fabric', quantity: 1 })).toBe(54.99);
  });
});
