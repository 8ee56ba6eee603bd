import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from '@shop/ui/router';
import './styles.css';
import { registerShopRemotes } from './remotes.js';
import { createRoutes } from './routes.js';

registerShopRemotes();

const router = createBrowserRouter(createRoutes());

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to draw the shop in.');

createRoot(container).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
