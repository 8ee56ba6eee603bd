// The contact details the payment page names (storefront §3, §7, §8): the admin's public contact config
// as the server sends it, the default support email when it cannot be used, and the phone's tel: link.
import { describe, expect, it } from 'vitest';
import { contactFromAnswer, telHref } from '../src/api/contact.js';
import type { HttpResult } from '../src/api/http.js';

const answer = (over: Partial<HttpResult<unknown>>): HttpResult<unknown> => ({
  ok: true,
  status: 200,
  data: null,
  rawText: '',
  error: null,
  networkError: false,
  ...over,
});

describe('the public contact config', () => {
  it('takes email, phone and hours as the server sends them', () => {
    const data = {
      supportEmail: 'help@coins.example',
      supportPhone: '(512) 555-0100',
      supportHours: { weekday: 'Mon-Fri 8-6', weekend: 'Closed' },
    };
    expect(contactFromAnswer(answer({ data }))).toEqual(data);
  });

  it('has no phone and no hours while the admin hides them', () => {
    expect(
      contactFromAnswer(
        answer({ data: { supportEmail: 'help@coins.example', supportPhone: null, supportHours: null } }),
      ),
    ).toEqual({
      supportEmail: 'help@coins.example',
      supportPhone: null,
      supportHours: null,
    });
    // A blank phone is no phone (never an empty tel: link).
    expect(
      contactFromAnswer(
        answer({ data: { supportEmail: 'help@coins.example', supportPhone: '  ', supportHours: null } }),
      ).supportPhone,
    ).toBeNull();
  });

  it('refuses a failed call or an answer without an email, so the page falls back', () => {
    expect(() => contactFromAnswer(answer({ ok: false, status: 503, error: 'HTTP 503: upstream down' }))).toThrow(
      /HTTP 503: upstream down/,
    );
    expect(() =>
      contactFromAnswer(answer({ ok: false, status: 0, error: 'Failed to fetch', networkError: true })),
    ).toThrow(/Failed to fetch/);
    expect(() => contactFromAnswer(answer({ data: { supportPhone: '(512) 555-0100' } }))).toThrow(/unexpected answer/);
    expect(() => contactFromAnswer(answer({ data: '<html>' }))).toThrow(/unexpected answer/);
  });
});

describe('tel: links', () => {
  it('keep the digits and a leading plus only', () => {
    expect(telHref('+1 (512) 555-0199')).toBe('tel:+15125550199');
    expect(telHref('(512) 555.0100')).toBe('tel:5125550100');
    expect(telHref('512-555-0100 +')).toBe('tel:5125550100');
  });
});
