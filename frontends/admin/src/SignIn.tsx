// The admin sign-in screen (spec: admin part A §2): email, password with a show/hide toggle, 'Sign In'
// that reads 'Authenticating...' while waiting, the notice that access is logged, and the server's
// answer ('Invalid email or password', or the lockout message) when it refuses.
import { useState, type FormEvent } from 'react';
import { Eye, EyeOff, Lock, ShieldHalf } from 'lucide-react';
import { Alert, Button, Card, CardBody, Field, Input } from '@shop/ui';
import type { AdminPublic } from '@shop/contracts';
import { AdminApiError, signIn } from './api.js';

export function SignIn({ onSignedIn }: { onSignedIn: (user: AdminPublic) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!email.trim() || !password) {
      setError('Please enter your email and password.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await signIn(email.trim(), password));
    } catch (err) {
      // 401 carries 'Invalid email or password'; 429 the lockout message; both come from the server.
      const shown = err instanceof AdminApiError && err.status < 500;
      setError(shown ? err.message : 'Sign-in is not available right now. Please try again in a moment.');
      setPassword('');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-1 items-center justify-center px-4 py-16" data-testid="admin-sign-in">
      <Card className="w-full max-w-md">
        <CardBody className="flex flex-col gap-6 p-8">
          <div className="flex flex-col items-center gap-2 text-center">
            <ShieldHalf aria-hidden="true" className="size-10 text-brass-400" />
            <h1 className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">Admin Access</h1>
            <p className="text-sm text-khaki-300">Sign in to the Admin Command Center.</p>
          </div>
          <form className="flex flex-col gap-4" onSubmit={submit} noValidate aria-label="Admin sign-in">
            <Field label="Email" required>
              <Input
                type="email"
                name="email"
                autoComplete="username"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                placeholder="admin@example.com"
              />
            </Field>
            <div className="flex flex-col gap-1.5">
              <label htmlFor="admin-password" className="text-sm font-semibold text-khaki-100">
                Password
                <span aria-hidden="true" className="ml-0.5 text-brass-400">
                  *
                </span>
              </label>
              <div className="relative">
                <Input
                  id="admin-password"
                  required
                  type={showPassword ? 'text' : 'password'}
                  name="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  className="pr-12"
                />
                <button
                  type="button"
                  onClick={() => setShowPassword((v) => !v)}
                  aria-label={showPassword ? 'Hide password' : 'Show password'}
                  aria-pressed={showPassword}
                  aria-controls="admin-password"
                  className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-md text-khaki-300 hover:text-khaki-50 focus-visible:outline-2 focus-visible:outline-brass-300"
                >
                  {showPassword ? (
                    <EyeOff aria-hidden="true" className="size-5" />
                  ) : (
                    <Eye aria-hidden="true" className="size-5" />
                  )}
                </button>
              </div>
            </div>
            {error ? (
              <Alert tone="error" role="alert" data-testid="sign-in-error">
                {error}
              </Alert>
            ) : null}
            <Button type="submit" size="lg" loading={busy} loadingText="Authenticating...">
              Sign In
            </Button>
          </form>
          <p
            className="flex items-start gap-2 rounded-md border border-olive-700 bg-ink-900 p-3 text-xs text-khaki-300"
            data-testid="access-notice"
          >
            <Lock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brass-400" />
            Authorized personnel only. Every sign-in attempt and admin action is logged with its time and address.
          </p>
        </CardBody>
      </Card>
    </div>
  );
}
