import { TriangleAlert } from 'lucide-react';
import { isRouteErrorResponse, useRouteError } from '@shop/ui/router';

/** Status and message of whatever the router caught: a thrown Response, an Error, or anything else. */
export function describeRouteError(error: unknown): { status?: number; message: string } {
  if (isRouteErrorResponse(error)) {
    const detail = typeof error.data === 'string' && error.data ? error.data : undefined;
    return { status: error.status, message: [error.statusText, detail].filter(Boolean).join(': ') || 'Request failed' };
  }
  if (error instanceof Error) return { message: error.message };
  return { message: typeof error === 'string' ? error : 'An unknown error occurred' };
}

/** The router's error element: the spec's generic fallback screen. */
export function ErrorScreen() {
  const { status, message } = describeRouteError(useRouteError());
  return (
    <section role="alert" className="mx-auto flex max-w-2xl flex-col items-center gap-4 px-4 py-24 text-center">
      <TriangleAlert aria-hidden="true" className="size-14 text-alert-400" />
      <h1 className="font-display text-3xl font-bold uppercase tracking-wide text-khaki-50">
        Unexpected Application Error!
      </h1>
      {status !== undefined ? (
        <p className="font-mono text-2xl font-bold text-brass-300" data-testid="error-status">
          {status}
        </p>
      ) : null}
      <p className="font-mono text-khaki-200" data-testid="error-message">
        {message}
      </p>
      <a href="/" className="text-brass-300 underline hover:text-brass-200">
        Back to the home page
      </a>
    </section>
  );
}
