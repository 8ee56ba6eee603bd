// /privacy: Privacy Policy (storefront §2: last updated August 24, 2025).
import { InfoPage, Sections } from '../info/InfoPage.js';
import { privacySections, privacyUpdated } from '../info/policies.js';

export default function Privacy() {
  return (
    <InfoPage
      title="Privacy Policy"
      updated={privacyUpdated}
      view="privacy"
      intro={<p>How we handle the information you share when you request a quote, order, or contact us.</p>}
    >
      <Sections sections={privacySections} />
    </InfoPage>
  );
}
