import { Compass } from 'lucide-react';
import { Link } from '@shop/ui/router';
import { buttonClasses } from '@shop/ui';

export function NotFound() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <Compass aria-hidden="true" className="size-14 text-brass-400" />
      <p className="font-mono text-sm uppercase tracking-widest text-khaki-300">Error 404</p>
      <h1 className="font-display text-4xl font-bold uppercase tracking-wide text-khaki-50">Mission Not Found</h1>
      <p className="text-khaki-200">
        The page you are looking for has moved, was never deployed, or the coordinates are wrong.
      </p>
      <Link to="/" className={buttonClasses('primary', 'lg')}>
        Return to Base
      </Link>
    </section>
  );
}
