import { Toaster as SonnerToaster, toast } from 'sonner';

/** Mounted once by the shell; remotes call `toast(...)` (sonner is a shared singleton). */
export function Toaster() {
  return (
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
  );
}

export { toast };
