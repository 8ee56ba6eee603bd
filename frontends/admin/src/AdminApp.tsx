// The back office (/admin/*). On load it asks the gateway who is signed in (GET /api/auth/me): without a
// live admin session it shows the sign-in screen instead of the back office (the server refuses every
// admin call without one anyway). Sign-out ends the session on the server.
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useState, type ReactNode } from 'react';
import { ErrorState, Spinner, toast } from '@shop/ui';
import type { AdminPublic } from '@shop/contracts';
import { SESSION_ENDED_EVENT, fetchCurrentAdmin, signOut } from './api.js';
import { SignIn } from './SignIn.js';
import './styles.css';

const ME_KEY = ['admin-me'] as const;

// The back office itself (its views, charts and tables) loads only once someone is signed in: the
// sign-in screen, what most visits to /admin see first, stays small.
const AdminShell = lazy(() => import('./AdminShell.js').then((m) => ({ default: m.AdminShell })));

function LoadingBackOffice() {
  return (
    <div className="flex flex-1 items-center justify-center py-24">
      <Spinner label="Loading the back office" />
    </div>
  );
}

/** What a signed-in page gets: the admin, and sign-out. */
export interface AdminSession {
  user: AdminPublic;
  signOut: () => void;
  signingOut: boolean;
}

function AuthGate({ children }: { children: (session: AdminSession) => ReactNode }) {
  const queryClient = useQueryClient();
  const me = useQuery({
    queryKey: ME_KEY,
    queryFn: ({ signal }) => fetchCurrentAdmin(signal),
    // Checking now and then notices a session that ended elsewhere (and renews the cookie's lifetime).
    refetchInterval: 5 * 60_000,
    retry: 1,
  });
  const [signingOut, setSigningOut] = useState(false);

  useEffect(() => {
    // Any admin call answering 401: the session is over; back to the sign-in screen.
    const ended = () => {
      queryClient.setQueryData(ME_KEY, null);
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== ME_KEY[0] });
    };
    window.addEventListener(SESSION_ENDED_EVENT, ended);
    return () => window.removeEventListener(SESSION_ENDED_EVENT, ended);
  }, [queryClient]);

  const signedIn = (user: AdminPublic) => queryClient.setQueryData(ME_KEY, user);

  async function doSignOut() {
    setSigningOut(true);
    try {
      await signOut();
    } catch {
      toast.error('Sign-out could not reach the server. Please try again.');
      setSigningOut(false);
      return;
    }
    setSigningOut(false);
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== ME_KEY[0] });
    queryClient.setQueryData(ME_KEY, null);
  }

  if (me.isPending) {
    return (
      <div className="flex flex-1 items-center justify-center py-24">
        <Spinner label="Checking your sign-in" />
      </div>
    );
  }
  if (me.isError) {
    return (
      <div className="mx-auto w-full max-w-xl px-4 py-16">
        <ErrorState
          title="The back office could not check your sign-in"
          message={me.error.message}
          onRetry={() => me.refetch()}
          retrying={me.isFetching}
        />
      </div>
    );
  }
  if (!me.data) return <SignIn onSignedIn={signedIn} />;
  return <>{children({ user: me.data, signOut: () => void doSignOut(), signingOut })}</>;
}

/** The admin remote's frame: its own query cache and the sign-in gate (also used by /debug/email). */
export function AdminRoot({ children }: { children: (session: AdminSession) => ReactNode }) {
  // One query cache per mounted back office; the storefront keeps its own.
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: true } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <div className="flex flex-1 flex-col bg-ink-900" data-remote="admin">
        <AuthGate>{children}</AuthGate>
      </div>
    </QueryClientProvider>
  );
}

export default function AdminApp() {
  return (
    <AdminRoot>
      {({ user, signOut, signingOut }) => (
        <Suspense fallback={<LoadingBackOffice />}>
          <AdminShell user={user} onSignOut={signOut} signingOut={signingOut} />
        </Suspense>
      )}
    </AdminRoot>
  );
}
