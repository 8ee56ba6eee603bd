// The route table of the storefront spec (section 2), owned by the shell. Screens come from the
// remotes; the shell itself draws the layout, the redirects, the 404 and the error screen.
import { replace, useParams, type RouteObject } from '@shop/ui/router';
import { Spinner } from '@shop/ui';
import { AppLayout } from './layout/AppLayout.js';
import { RemoteView } from './RemoteView.js';
import type { RemoteModuleId } from './remotes.js';
import { ErrorScreen } from './screens/ErrorScreen.js';
import { NotFound } from './screens/NotFound.js';

/** Case and hyphen variants of the product routes, redirected (history replace) to the canonical path. */
export const productRedirects: Record<string, string> = {
  '/ArmyPatches': '/army-patches',
  '/Army-Patches': '/army-patches',
  '/NavyCoins': '/navy-coins',
  '/Navy-Coins': '/navy-coins',
  '/AirForcePatches': '/airforce-patches',
  '/AirForce-Patches': '/airforce-patches',
  '/Air-Force-Patches': '/airforce-patches',
};

/** The support and information pages: path -> the storefront module that draws it. */
export const infoPages = [
  ['support', 'storefront/Support'],
  ['faq', 'storefront/Faq'],
  ['returns', 'storefront/Returns'],
  ['privacy', 'storefront/Privacy'],
  ['terms', 'storefront/Terms'],
  ['sitemap', 'storefront/Sitemap'],
  ['legal', 'storefront/Legal'],
  ['business', 'storefront/Business'],
] as const satisfies readonly (readonly [string, RemoteModuleId])[];

function Redirecting() {
  return (
    <div className="flex flex-1 items-center justify-center py-24">
      <Spinner label="Redirecting" />
    </div>
  );
}

/** The quote payment page of the order in the link (the id is the order's unguessable id). */
function PayRoute() {
  const { orderId = '' } = useParams();
  return <RemoteView module="storefront/PayPage" props={{ orderId }} />;
}

export function createRoutes(): RouteObject[] {
  return [
    {
      id: 'root',
      element: <AppLayout />,
      // Last resort if the layout itself fails: the error screen still gets the header and footer.
      errorElement: (
        <AppLayout>
          <ErrorScreen />
        </AppLayout>
      ),
      children: [
        {
          // Route errors render inside the layout, so the header and navigation stay usable.
          id: 'pages',
          errorElement: <ErrorScreen />,
          children: [
            { index: true, element: <RemoteView module="storefront/Home" /> },
            { path: 'track', caseSensitive: true, element: <RemoteView module="storefront/Track" /> },
            { path: 'order/pay/:orderId', caseSensitive: true, element: <PayRoute /> },
            // The support desk and the information pages (storefront §2 route table).
            ...infoPages.map(([path, module]): RouteObject => ({
              path,
              caseSensitive: true,
              element: <RemoteView module={module} />,
            })),
            // The admin remote owns everything below /admin (its own nested routes).
            { path: 'admin/*', caseSensitive: true, element: <RemoteView module="admin/AdminApp" /> },
            // Email diagnostics (admin part A §2): the admin remote's page, behind its sign-in.
            { path: 'debug/email', caseSensitive: true, element: <RemoteView module="admin/EmailDiagnostics" /> },
            {
              path: 'army-patches',
              caseSensitive: true,
              element: <RemoteView module="storefront/BranchPage" props={{ branch: 'army' }} />,
            },
            {
              path: 'navy-coins',
              caseSensitive: true,
              element: <RemoteView module="storefront/BranchPage" props={{ branch: 'navy' }} />,
            },
            {
              path: 'airforce-patches',
              caseSensitive: true,
              element: <RemoteView module="storefront/BranchPage" props={{ branch: 'airforce' }} />,
            },
            ...Object.entries(productRedirects).map(([from, to]): RouteObject => ({
              path: from,
              // Route paths match case-insensitively by default; /Army-Patches must not be taken for
              // /army-patches (it redirects) and /ARMY-PATCHES is not a known variant (404).
              caseSensitive: true,
              loader: () => replace(to),
              HydrateFallback: Redirecting,
            })),
            { path: '*', element: <NotFound /> },
          ],
        },
      ],
    },
  ];
}
