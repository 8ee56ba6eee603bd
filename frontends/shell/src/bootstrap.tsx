import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { sitePageMarkers } from '@shop/contracts';
import { createBrowserRouter, RouterProvider } from '@shop/ui/router';
import { registerShopRemotes } from './remotes.js';
import { preloadRemoteModule } from './RemoteView.js';
import { createRoutes } from './routes.js';
import { nextTask } from './startupTasks.js';

// The gateway sends the home page with its header and hero already drawn in #root (gateway/src/first-paint.ts,
// marked data-first-paint). React's first render replaces #root's content: drawn only once the home module
// is here, it puts the same hero in the same place instead of a loading placeholder (no flash, no layout
// shift). Past this wait the shell draws anyway (the page's own loading state and errors take over).
const FIRST_PAINT_WAIT_MS = 4_000;

registerShopRemotes();

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to draw the shop in.');

async function render(root: HTMLElement): Promise<void> {
  // The start-up in four tasks (this module's evaluation with what it imports, React DOM and the router
  // among them; the router's set-up; the home module's loading; React's first render) instead of one or
  // two long ones: Lighthouse's Total Blocking Time on a throttled phone CPU counts each task's time over
  // 50 ms.
  await nextTask();
  const router = createBrowserRouter(createRoutes());
  await nextTask();
  if (root.hasAttribute(sitePageMarkers.firstPaintAttribute) && window.location.pathname === '/') {
    await Promise.race([preloadRemoteModule('storefront/Home'), nextTask(FIRST_PAINT_WAIT_MS)]);
  }
  await nextTask();
  root.removeAttribute(sitePageMarkers.firstPaintAttribute);
  const reactRoot = createRoot(root);
  // As a transition the first render yields to the browser every few milliseconds instead of holding the
  // main thread for the whole page (Lighthouse's Total Blocking Time on a throttled phone CPU).
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    ),
  );
}

void render(container);
