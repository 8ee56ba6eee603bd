// /business: Business Information (storefront §3: overview, licences, tax compliance, pricing and quotes,
// quality standards, contact addresses for business, tax, legal and support). The registered details
// (names, registered address, tax permits in force) come from the business registration an
// administrator keeps in Site configuration (GET /api/config/business/public; never the EIN); until one
// is saved, or when it cannot be loaded, the page names none rather than inventing them. Contact goes
// through the support address.
import { useQuery } from '@tanstack/react-query';
import { businessConfigPaths, publicBusinessConfigSchema, type PublicBusinessConfig } from '@shop/contracts';
import { Card } from '@shop/ui';
import { useShopContact } from '../api/contact.js';
import { request } from '../api/http.js';
import { InfoPage, Sections } from '../info/InfoPage.js';
import { businessSections } from '../info/policies.js';
import { StorefrontQueries } from '../query.js';

const topics = [
  ['Business inquiries', 'Business'],
  ['Tax and exemption certificates', 'Tax'],
  ['Legal notices', 'Legal'],
  ['Order support', 'Support'],
] as const;

async function loadRegistration(): Promise<PublicBusinessConfig> {
  const result = await request<unknown>(businessConfigPaths.public);
  if (!result.ok)
    throw new Error(`Business registration could not be loaded: ${result.error ?? `HTTP ${result.status}`}`);
  return publicBusinessConfigSchema.parse(result.data);
}

/** The registered details, shown only once an administrator saved them. */
function Registration() {
  const query = useQuery({ queryKey: ['business-public'], queryFn: loadRegistration, staleTime: 5 * 60_000 });
  const r = query.data;
  if (!r || (!r.legalName && !r.businessName && !r.businessAddress && !r.taxPermits.length)) return null;
  const a = r.businessAddress;
  return (
    <section aria-labelledby="business-registration" data-testid="business-registration">
      <h2 id="business-registration" className="font-display text-xl font-bold uppercase tracking-wide text-brass-300">
        Registered Business
      </h2>
      <dl className="mt-3 grid gap-3 text-khaki-100 sm:grid-cols-2">
        {r.businessName ? (
          <div>
            <dt className="text-sm text-khaki-300">Business name</dt>
            <dd className="font-semibold text-khaki-50">{r.businessName}</dd>
          </div>
        ) : null}
        {r.legalName ? (
          <div>
            <dt className="text-sm text-khaki-300">Legal name</dt>
            <dd className="font-semibold text-khaki-50">{r.legalName}</dd>
          </div>
        ) : null}
        {a ? (
          <div>
            <dt className="text-sm text-khaki-300">Registered address</dt>
            <dd>
              <address className="not-italic">
                {a.line1}
                {a.line2 ? <>, {a.line2}</> : null}
                <br />
                {a.city}, {a.state} {a.postalCode}
                <br />
                {a.country}
              </address>
            </dd>
          </div>
        ) : null}
        {r.taxPermits.length ? (
          <div>
            <dt className="text-sm text-khaki-300">Tax permits</dt>
            <dd>
              <ul className="list-none space-y-1">
                {r.taxPermits.map((p) => (
                  <li key={`${p.jurisdiction}-${p.permitNumber}`}>
                    {p.jurisdiction} {p.type}: {p.permitNumber}
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}

function Contacts() {
  const contact = useShopContact();
  const address = contact?.supportEmail;
  return (
    <section aria-labelledby="business-contact">
      <h2 id="business-contact" className="font-display text-xl font-bold uppercase tracking-wide text-brass-300">
        {businessSections.length + 1}. Contact
      </h2>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        {topics.map(([title, subject]) => (
          <Card key={title} className="p-4">
            <p className="font-semibold text-khaki-50">{title}</p>
            <p className="mt-1 text-sm text-khaki-200">
              {address ? (
                <a className="underline" href={`mailto:${address}?subject=${encodeURIComponent(subject)}`}>
                  {address}
                </a>
              ) : (
                'Through the Contact Support page'
              )}{' '}
              with "{subject}" in the subject.
            </p>
          </Card>
        ))}
      </div>
    </section>
  );
}

export default function Business() {
  return (
    <StorefrontQueries>
      <InfoPage title="Business Information" view="business">
        <Registration />
        <Sections sections={businessSections} />
        <Contacts />
      </InfoPage>
    </StorefrontQueries>
  );
}
