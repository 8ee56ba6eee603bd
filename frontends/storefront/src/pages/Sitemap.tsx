// /sitemap (storefront §3): link groups Main, Products, Support, Legal; summary tiles; key features;
// quick links.
import { Link } from '@shop/ui/router';
import { Card, buttonClasses } from '@shop/ui';
import { InfoPage } from '../info/InfoPage.js';

const groups = [
  {
    title: 'Main',
    links: [
      ['/', 'Home: Order Custom Items'],
      ['/track', 'Track Your Order'],
    ],
  },
  {
    title: 'Products',
    links: [
      ['/army-patches', 'Army Patches'],
      ['/navy-coins', 'Navy Challenge Coins'],
      ['/airforce-patches', 'Air Force Patches'],
    ],
  },
  {
    title: 'Support',
    links: [
      ['/support', 'Contact Support'],
      ['/faq', 'FAQ'],
      ['/returns', 'Returns and Exchanges'],
    ],
  },
  {
    title: 'Legal',
    links: [
      ['/privacy', 'Privacy Policy'],
      ['/terms', 'Terms of Service'],
      ['/sitemap', 'Sitemap'],
    ],
  },
] as const;

const tiles = ['12 pages', '3 product lines', '3 support pages', '3 legal pages'];
const features = [
  'Quote requests without an account, answered within 24 hours',
  'AI design tool for coins, patches and shirts',
  'Order tracking with your order number and email',
  'Secure quote payment by card',
  'Military, first responder and volume discounts',
];
const quick = [
  ['/', 'Start an Order'],
  ['/track', 'Track Order'],
  ['/support', 'Contact Support'],
  ['/faq', 'FAQ'],
] as const;

export default function Sitemap() {
  return (
    <InfoPage title="Sitemap" view="sitemap">
      <div className="grid gap-3 sm:grid-cols-4" data-testid="sitemap-tiles">
        {tiles.map((t) => (
          <Card key={t} className="p-4 text-center font-semibold text-brass-300">
            {t}
          </Card>
        ))}
      </div>
      <div className="grid gap-6 sm:grid-cols-2">
        {groups.map((group) => (
          <nav key={group.title} aria-label={`${group.title} pages`}>
            <h2 className="font-display text-xl font-bold uppercase tracking-wide text-brass-300">{group.title}</h2>
            <ul className="mt-2 space-y-1.5">
              {group.links.map(([to, label]) => (
                <li key={to}>
                  <Link className="text-khaki-100 underline hover:text-khaki-50" to={to}>
                    {label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <section aria-labelledby="key-features">
        <h2 id="key-features" className="font-display text-xl font-bold uppercase tracking-wide text-brass-300">
          Key Features
        </h2>
        <ul className="mt-2 list-disc space-y-1 pl-6 text-khaki-100">
          {features.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
      </section>
      <nav aria-label="Quick links" className="flex flex-wrap gap-2">
        {quick.map(([to, label]) => (
          <Link key={to} to={to} className={buttonClasses('secondary', 'sm')}>
            {label}
          </Link>
        ))}
      </nav>
    </InfoPage>
  );
}
