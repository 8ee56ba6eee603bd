// Types of engine.js (plain JavaScript so k6 can load it).
import type { Journey, JourneyStep } from './journeys.js';

export type JourneyVars = Record<string, unknown> & { baseUrl: string };
export interface PreparedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  json?: unknown;
  multipart?: {
    files: { field: string; filename: string; contentType: string; base64: string }[];
    fields?: Record<string, string>;
  };
}
export function lookup(value: unknown, path: string): unknown;
export function fill<T>(template: T, vars: Record<string, unknown>): T;
export function stepName(journey: Journey, step: JourneyStep): string;
export function prepare(step: JourneyStep, vars: JourneyVars): PreparedRequest;
export function judge(
  step: JourneyStep,
  answer: { status: number; body: string },
): { failures: string[]; saved: Record<string, unknown> };
export function uniqueId(runner: string | number, iteration: number): string;
