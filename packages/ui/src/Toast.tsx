// Toasts (sonner) without sonner on first load: the library is fetched with the first toast of the visit,
// and the shell's Toaster mounts sonner's only then. A toast sent before sonner's Toaster has subscribed
// would be lost, so each toast waits until the Toaster says it is mounted.
// The shell and both remotes run ONE instance of this module: Module Federation shares it as a singleton
// (`@shop/ui/toast`, build/rspack-app.ts). So a remote's toast() finds the Toaster the shell mounted in
// this module's own state, and sonner, imported only here, is one instance too.
import { lazy, Suspense, useEffect, useState } from 'react';
import type * as SonnerModule from 'sonner';
import type { ExternalToast } from 'sonner';

type Sonner = typeof SonnerModule;
type ToastMessage = Parameters<Sonner['toast']['success']>[0];
type ToastKind = 'success' | 'error' | 'info';

interface ToasterHub {
  /** Mounts sonner's Toaster if it is not yet; resolves once it listens for toasts. */
  request(): Promise<void>;
}

/** The shell's mounted Toaster; none before it mounts (a toast then goes to sonner directly). */
let mountedToaster: ToasterHub | undefined;

let sonner: Promise<Sonner> | undefined;
const loadSonner = () => (sonner ??= import('sonner'));

function show(kind: ToastKind, message: ToastMessage, options?: ExternalToast): void {
  const mounted = mountedToaster?.request() ?? Promise.resolve();
  void Promise.all([loadSonner(), mounted]).then(([{ toast }]) => {
    toast[kind](message, options);
  });
}

/** Raise a toast from any app: `toast.success('Saved')`, `toast.error('Failed', { description })`. */
export const toast = {
  success: (message: ToastMessage, options?: ExternalToast) => show('success', message, options),
  error: (message: ToastMessage, options?: ExternalToast) => show('error', message, options),
  info: (message: ToastMessage, options?: ExternalToast) => show('info', message, options),
};

const SonnerToaster = lazy(() => loadSonner().then((m) => ({ default: m.Toaster })));

function Mounted({ onMounted }: { onMounted: () => void }) {
  // Runs after the effects of its earlier sibling, sonner's Toaster (which subscribes in one).
  useEffect(onMounted, [onMounted]);
  return null;
}

function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Mounted once by the shell; draws nothing (and loads nothing) until the first toast. */
export function Toaster() {
  const [wanted, setWanted] = useState(false);
  const [mounted] = useState(deferred);
  useEffect(() => {
    const hub: ToasterHub = {
      request: () => {
        setWanted(true);
        return mounted.promise;
      },
    };
    mountedToaster = hub;
    return () => {
      if (mountedToaster === hub) mountedToaster = undefined;
    };
  }, [mounted]);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster
        theme="dark"
        position="top-right"
        closeButton
        toastOptions={{
          classNames: {
            toast: 'border! border-olive-500! bg-olive-800! text-khaki-50!',
            description: 'text-khaki-200!',
            success: 'border-ok-400/70!',
            error: 'border-alert-400/70!',
          },
        }}
      />
      <Mounted onMounted={mounted.resolve} />
    </Suspense>
  );
}
