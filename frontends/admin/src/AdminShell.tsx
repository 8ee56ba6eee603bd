// The signed-in back office: the header (logo to the site root, the view switch, who is signed in,
// Sign Out) and the chosen view. A sign-in lands on the orders dashboard; the chosen view survives a
// reload (sessionStorage; no admin data). The shell's layout owns the page's one `main` landmark, so the
// view is drawn in a plain region under a (visually hidden) h1 naming it; every view starts at h2.
import { useState } from 'react';
import { Link } from '@shop/ui/router';
import { LogOut, ShieldHalf } from 'lucide-react';
import { Button, cn } from '@shop/ui';
import { shopName, type AdminPublic } from '@shop/contracts';
import { ADMIN_VIEWS, DEFAULT_VIEW_ID } from './views.js';

const VIEW_KEY = 'shop-admin-view';

function initialView(): string {
  try {
    const saved = sessionStorage.getItem(VIEW_KEY);
    if (saved && ADMIN_VIEWS.some((v) => v.id === saved)) return saved;
  } catch {
    // storage blocked: start on the default view
  }
  return ADMIN_VIEWS.some((v) => v.id === DEFAULT_VIEW_ID) ? DEFAULT_VIEW_ID : ADMIN_VIEWS[0].id;
}

export function AdminShell({
  user,
  onSignOut,
  signingOut,
}: {
  user: AdminPublic;
  onSignOut: () => void;
  signingOut: boolean;
}) {
  const [viewId, setViewId] = useState(initialView);
  const view = ADMIN_VIEWS.find((v) => v.id === viewId) ?? ADMIN_VIEWS[0];
  const choose = (id: string) => {
    setViewId(id);
    try {
      sessionStorage.setItem(VIEW_KEY, id);
    } catch {
      // not remembered; fine
    }
  };

  return (
    <>
      <div className="border-b border-olive-700 bg-olive-900">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-4 py-4">
          <Link
            to="/"
            className="flex items-center gap-3 rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass-300"
            title="Go to the shop's home page"
          >
            <ShieldHalf aria-hidden="true" className="size-7 text-brass-400" />
            <div>
              <p className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">
                Admin Command Center
              </p>
              <p className="text-sm text-khaki-300">Back office of {shopName}</p>
            </div>
          </Link>
          <div className="flex flex-wrap items-center gap-3">
            <nav aria-label="Back office views" className="flex flex-wrap gap-2">
              {ADMIN_VIEWS.map(({ id, label, icon: Icon }) => (
                <button
                  key={id}
                  type="button"
                  data-view-id={id}
                  onClick={() => choose(id)}
                  aria-current={id === view.id ? 'page' : undefined}
                  className={cn(
                    'flex h-9 items-center gap-2 rounded-md px-3 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass-300',
                    id === view.id ? 'bg-brass-400 text-ink-900' : 'text-khaki-100 hover:bg-olive-700',
                  )}
                >
                  <Icon aria-hidden="true" className="size-4" />
                  {label}
                </button>
              ))}
            </nav>
            <span className="hidden text-sm text-khaki-300 md:inline" data-testid="signed-in-as">
              {user.name} · {user.email}
            </span>
            <Button variant="secondary" size="sm" onClick={onSignOut} loading={signingOut} loadingText="Signing out...">
              <LogOut aria-hidden="true" className="size-4" />
              Sign Out
            </Button>
          </div>
        </div>
      </div>
      <div className="mx-auto w-full min-w-0 max-w-6xl px-4 py-8" data-view={view.id}>
        <h1 className="sr-only">{view.label}</h1>
        <view.Component />
      </div>
    </>
  );
}
