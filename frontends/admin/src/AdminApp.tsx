// The back office (/admin/*). Until admin sign-in lands (issue 5) it shows the frame and the real
// system status read from the gateway; the order views arrive with that work.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ShieldHalf } from 'lucide-react';
import { useState } from 'react';
import { SystemStatus } from './SystemStatus.js';
import './styles.css';

export default function AdminApp() {
  // One query cache per mounted back office; the storefront keeps its own.
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: true } } }));
  return (
    <QueryClientProvider client={queryClient}>
      <div className="flex flex-1 flex-col bg-ink-900" data-remote="admin">
        <div className="border-b border-olive-700 bg-olive-900">
          <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-4">
            <ShieldHalf aria-hidden="true" className="size-7 text-brass-400" />
            <div>
              <h1 className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">Admin Command Center</h1>
              <p className="text-sm text-khaki-300">Back office of Tactical Gear Co.</p>
            </div>
          </div>
        </div>
        <div className="mx-auto w-full max-w-6xl px-4 py-8">
          <SystemStatus />
        </div>
      </div>
    </QueryClientProvider>
  );
}
