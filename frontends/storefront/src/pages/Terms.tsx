// /terms: Terms of Service (storefront §2 Last Updated: January 2025; §3 the sections it lists).
import { InfoPage, Sections } from '../info/InfoPage.js';
import { termsSections, termsUpdated } from '../info/policies.js';

export default function Terms() {
  return (
    <InfoPage
      title="Terms of Service"
      updated={termsUpdated}
      view="terms"
      intro={<p>These terms apply to every quote and order. Please read them before you accept a quote.</p>}
    >
      <Sections sections={termsSections} />
    </InfoPage>
  );
}
