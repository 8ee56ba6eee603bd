// /business: Business Information (storefront §3: overview, licences, tax compliance, pricing and quotes,
// quality standards, contact addresses for business, tax, legal and support). The registered details
// (legal name, EIN, address, permits) will come from the business configuration once it is published;
// until then the page names none rather than inventing them. Contact goes through the support address.
import { Card } from '@shop/ui';
import { useShopContact } from '../api/contact.js';
import { InfoPage, Sections } from '../info/InfoPage.js';
import { businessSections } from '../info/policies.js';
import { StorefrontQueries } from '../query.js';

const topics = [
  ['Business inquiries', 'Business'],
  ['Tax and exemption certificates', 'Tax'],
  ['Legal notices', 'Legal'],
  ['Order support', 'Support'],
] as const;

function Contacts() {
  const contact = useShopContact();
  const address = contact?.supportEmail;
  return (
    <section aria-labelledby="business-contact">
      <h2 id="business-contact" className="font-display text-xl font-bold uppercase tracking-wide text-brass-300">{businessSections.length + 1}. Contact</h2>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        {topics.map(([title, subject]) => (
          <Card key={title} className="p-4">
            <p className="font-semibold text-khaki-50">{title}</p>
            <p className="mt-1 text-sm text-khaki-200">
              {address ? (
                <a className="underline" href={`mailto:${address}?subject=${encodeURIComponent(subject)}`}>{address}</a>
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
        <Sections sections={businessSections} />
        <Contacts />
      </InfoPage>
    </StorefrontQueries>
  );
}
