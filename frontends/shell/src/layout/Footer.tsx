import { Link } from '@shop/ui/router';
import { shopName } from '@shop/contracts';

// The spec's footer reaches the support, legal and product pages (storefront §2).
const groups = [
  {
    title: 'Products',
    links: [
      { to: '/army-patches', label: 'Army Patches' },
      { to: '/navy-coins', label: 'Navy Challenge Coins' },
      { to: '/airforce-patches', label: 'Air Force Patches' },
    ],
  },
  {
    title: 'Support',
    links: [
      { to: '/track', label: 'Track Order' },
      { to: '/support', label: 'Contact Support' },
      { to: '/faq', label: 'FAQ' },
      { to: '/returns', label: 'Returns & Exchanges' },
    ],
  },
  {
    title: 'Company',
    links: [
      { to: '/business', label: 'Business Information' },
      { to: '/legal', label: 'Legal Disclaimers' },
      { to: '/privacy', label: 'Privacy Policy' },
      { to: '/terms', label: 'Terms of Service' },
      { to: '/sitemap', label: 'Sitemap' },
    ],
  },
];

export function Footer() {
  return (
    <footer className="mt-auto border-t border-olive-700 bg-ink-900">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="font-display text-lg font-bold uppercase tracking-wider text-khaki-50">
            Tactical Gear <span className="text-brass-400">Co.</span>
          </p>
          <p className="mt-2 text-sm text-khaki-300">
            Custom challenge coins, patches and tactical shirts for units, first responders and organisations. Quotes
            within 24 hours.
          </p>
        </div>
        {groups.map((group) => (
          <nav key={group.title} aria-label={group.title}>
            <h2 className="text-sm font-bold uppercase tracking-wider text-brass-300">{group.title}</h2>
            <ul className="mt-3 space-y-2">
              {group.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="text-sm text-khaki-200 hover:text-khaki-50 hover:underline">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-olive-800">
        <p className="mx-auto max-w-6xl px-4 py-4 text-xs text-khaki-300">
          © {new Date().getFullYear()} {shopName} Not affiliated with the Department of Defense or any service branch.
        </p>
      </div>
    </footer>
  );
}
