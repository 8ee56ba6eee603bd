import { Link, NavLink } from '@shop/ui/router';
import { shopName } from '@shop/contracts';
import { cn } from '@shop/ui';
import { LogoMark } from './Logo.js';

const links = [
  { to: '/', label: 'Home', end: true },
  { to: '/track', label: 'Track Order', end: false },
  { to: '/admin', label: 'Admin', end: false },
];

export function Header() {
  return (
    <header className="sticky top-0 z-30 border-b border-olive-700 bg-ink-950/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <Link to="/" className="flex items-center gap-2.5 rounded-md" aria-label={`${shopName} home`}>
          <LogoMark className="size-9 shrink-0" />
          <span className="hidden font-display text-lg font-bold uppercase leading-none tracking-wider text-khaki-50 sm:inline">
            Tactical Gear <span className="text-brass-400">Co.</span>
          </span>
        </Link>
        <nav aria-label="Main">
          <ul className="flex items-center gap-0.5 sm:gap-2">
            {links.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  end={link.end}
                  className={({ isActive }) =>
                    cn(
                      'whitespace-nowrap rounded-md px-2 py-2 text-sm font-semibold uppercase tracking-wide transition-colors sm:px-3',
                      isActive
                        ? 'bg-olive-800 text-brass-300'
                        : 'text-khaki-200 hover:bg-olive-800 hover:text-khaki-50',
                    )
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}
