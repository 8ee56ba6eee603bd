// Every message of the storefront spec (§5, §8) in one place, and the rules that choose between them.
import {
  customerLookupMessages,
  trackMissingFieldsMessage,
  trackOrderNotFoundMessage,
  uploadRejectedMessage,
} from '@shop/contracts';
import type { HttpResult } from './api/http.js';

// Texts the services also answer with come from @shop/contracts, so both sides say the same words.

export const messages = {
  uploadRejected: uploadRejectedMessage,
  uploadFailedDefault: 'Upload failed',
  orderDefault: 'Failed to submit order to database',
  orderGeneric: 'Error submitting order. Please try again or contact support.',
  customizerMissingContact:
    'Please fill in your name and email address in the customization form before submitting your order.',
  customizerNetwork: 'Network error. Please check your internet connection and try again.',
  customizer400: 'Invalid order data. Please check all fields and try again.',
  customizer500: 'Server error. Our team has been notified. Please try again in a few minutes.',
  aiTooShort: 'Please provide a more detailed description (at least 5 characters)',
  aiTooLong: 'Description is too long. Please keep it under 500 characters.',
  aiBadItem: 'Please select a valid item type',
  aiInvalidParams:
    'Please check your input: make sure your description is between 5-500 characters and an item type is selected.',
  aiUnavailable: 'AI service temporarily unavailable. Please try again later.',
  aiBadRequest: 'Invalid request. Please check your description is detailed enough (at least 5 characters).',
  downloadFailed: 'Download failed. Please try again.',
  lookupEmpty: customerLookupMessages.emailRequired,
  lookupNoOrders: customerLookupMessages.notFound,
  lookupFailed: 'Unable to search customer records. Please try again.',
  verifyEmpty: customerLookupMessages.codeRequired,
  verifyLength: customerLookupMessages.codeFormat,
  verifyFailed: 'Verification failed. Please try again.',
  verifyBadCode: customerLookupMessages.invalidCode,
  trackMissing: trackMissingFieldsMessage,
  trackNotFound: trackOrderNotFoundMessage,
  trackNetwork: 'Unable to track order. Please try again later.',
};

/** "File upload failed: {reason}" (the server's error, or "Upload failed"). */
export function uploadFailedMessage(reason: string | null | undefined): string {
  return `File upload failed: ${reason || messages.uploadFailedDefault}`;
}

/** A field problem the server reported in `details` (our error envelope's validation shape). */
export interface FieldProblem {
  field: string;
  message: string;
}

/** A detail from the server as text: strings as they are, a path array joined with dots, anything else empty. */
const textOf = (v: unknown): string =>
  typeof v === 'string' ? v : Array.isArray(v) ? v.join('.') : typeof v === 'number' ? String(v) : '';

export function fieldProblems(details: unknown): FieldProblem[] {
  if (!Array.isArray(details)) return [];
  return details
    .filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null)
    .map((d) => ({ field: textOf(d.field ?? d.path), message: textOf(d.message) }))
    .filter((d) => d.message);
}

/**
 * The order submit's failure text (§8): the server's error with a cross mark; a failed answer without
 * one gives the database default; no answer at all gives the generic text.
 */
export function orderFailureMessage(result: Pick<HttpResult<unknown>, 'ok' | 'networkError' | 'data'>): string {
  if (result.networkError) return messages.orderGeneric;
  const body = (result.data ?? {}) as { error?: unknown };
  const error = typeof body.error === 'string' && body.error ? body.error : messages.orderDefault;
  return `❌ ${error}`;
}

/** The customizer's order failure text (§8): by network, 400 and 500, else the server's own words. */
export function customizerFailureMessage(
  result: Pick<HttpResult<unknown>, 'status' | 'networkError' | 'error'>,
): string {
  if (result.networkError) return messages.customizerNetwork;
  if (result.status === 400) return messages.customizer400;
  if (result.status >= 500) return messages.customizer500;
  return result.error || messages.orderGeneric;
}

/** AI prompt check before calling the server (§5). Returns the alert text, or null when fine. */
export function aiPromptProblem(prompt: string, itemType: string | null): string | null {
  if (prompt.trim().length < 5) return messages.aiTooShort;
  if (prompt.length > 500) return messages.aiTooLong;
  if (itemType !== 'coin' && itemType !== 'shirt' && itemType !== 'patch') return messages.aiBadItem;
  return null;
}

/**
 * The AI failure text (§8). `message` is the server's error, or "HTTP error! status: N" when it sent
 * none, or the network failure's message.
 */
export function aiFailureMessage(message: string, status: number | null): string {
  if (message.includes('Invalid request parameters')) return messages.aiInvalidParams;
  if (/billing|quota/i.test(message)) return messages.aiUnavailable;
  if (status === 400) return messages.aiBadRequest;
  return `Failed to generate design: ${message}`;
}

/** The prompt counter's colour (§5): red under 5, yellow at 500. */
export function promptCounterTone(length: number): 'short' | 'full' | 'ok' {
  if (length < 5) return 'short';
  if (length >= 500) return 'full';
  return 'ok';
}

/** The 6-digit code box keeps digits only, at most 6 (§5). */
export function cleanVerificationCode(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, 6);
}

export function verificationCodeProblem(code: string): string | null {
  if (!code) return messages.verifyEmpty;
  if (code.length !== 6) return messages.verifyLength;
  return null;
}
