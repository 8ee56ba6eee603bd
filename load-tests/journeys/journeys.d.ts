// Types of journeys.js (plain JavaScript so k6 can load it).
export interface JourneyFile {
  field: string;
  filename: string;
  contentType: string;
  base64: string;
}
export interface JourneyStep {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  json?: unknown;
  multipart?: { files: JourneyFile[]; fields?: Record<string, string> };
  expect?: { status?: number[]; json?: string[]; bodyIncludes?: string };
  save?: Record<string, string>;
}
export interface Journey {
  name: string;
  description: string;
  steps: JourneyStep[];
}
export const ARTWORK_PNG_BASE64: string;
export const TEST_MODE_CARD_SUCCEEDS: string;
export const journeys: Journey[];
export const thresholds: Record<string, string[]>;
