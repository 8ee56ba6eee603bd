// One react-query client for the storefront's pages. Each exposed page wraps itself in it, because the
// shell mounts the pages one by one (Module Federation) and has no provider of its own for them.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';

const client = new QueryClient({
  defaultOptions: {
    // Order and lookup calls must never be repeated behind the customer's back.
    mutations: { retry: 0 },
    queries: { retry: 1, refetchOnWindowFocus: false },
  },
});

export function StorefrontQueries({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
