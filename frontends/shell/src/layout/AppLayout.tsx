import { Outlet, ScrollRestoration } from '@shop/ui/router';
import { Toaster } from '@shop/ui';
import { Footer } from './Footer.js';
import { Header } from './Header.js';
import { MessageUs } from './MessageUs.js';

export function AppLayout({ children }: { children?: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-brass-400 focus:px-4 focus:py-2 focus:text-ink-950"
      >
        Skip to content
      </a>
      <Header />
      <main id="main" className="flex flex-1 flex-col">
        {children ?? <Outlet />}
      </main>
      <Footer />
      <MessageUs />
      <Toaster />
      <ScrollRestoration />
    </div>
  );
}
