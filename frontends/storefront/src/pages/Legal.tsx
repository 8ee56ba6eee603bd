// /legal: Legal Disclaimers (storefront §3: no affiliation, liability, tax estimates, IP, general, contact).
import { InfoPage, Sections } from '../info/InfoPage.js';
import { legalSections } from '../info/policies.js';

export default function Legal() {
  return (
    <InfoPage title="Legal Disclaimers" view="legal">
      <Sections sections={legalSections} />
    </InfoPage>
  );
}
