// /faq: the searchable FAQ, grouped in the spec's five categories (storefront §2, §3 FAQ entry, §9 facts).
import { Search } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from '@shop/ui/router';
import { Field, Input } from '@shop/ui';
import { faqCategories, faqEntries } from '../info/faq.js';
import { InfoPage } from '../info/InfoPage.js';

export default function Faq() {
  const [query, setQuery] = useState('');
  const matches = useMemo(() => {
    const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
    return faqEntries.filter((e) =>
      words.every((w) => `${e.question} ${e.answer} ${e.category}`.toLowerCase().includes(w)),
    );
  }, [query]);
  return (
    <InfoPage
      title="Frequently Asked Questions"
      view="faq"
      intro={<p>Answers about ordering, pricing, production, shipping and quality.</p>}
    >
      <Field label="Search the FAQ">
        <Input
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="e.g. rush, shipping, discount"
        />
      </Field>
      <p className="sr-only" role="status">
        {matches.length} questions found
      </p>
      {matches.length === 0 ? (
        <p className="text-khaki-200" data-testid="faq-empty">
          No questions match "{query}".{' '}
          <Link className="underline" to="/support">
            Contact Support
          </Link>{' '}
          and we will answer you directly.
        </p>
      ) : null}
      {faqCategories.map((category) => {
        const entries = matches.filter((e) => e.category === category);
        if (!entries.length) return null;
        return (
          <section key={category} aria-label={category}>
            <h2 className="font-display text-xl font-bold uppercase tracking-wide text-brass-300">{category}</h2>
            <div className="mt-3 flex flex-col gap-2">
              {entries.map((entry) => (
                <details
                  key={entry.id}
                  className="rounded-md border border-olive-600 bg-ink-900 px-4 py-3"
                  data-testid="faq-entry"
                >
                  <summary className="cursor-pointer font-semibold text-khaki-50">{entry.question}</summary>
                  <p className="mt-2 leading-relaxed text-khaki-200">{entry.answer}</p>
                </details>
              ))}
            </div>
          </section>
        );
      })}
      <p className="flex items-center gap-2 text-sm text-khaki-300">
        <Search aria-hidden="true" className="size-4" /> Still need help?{' '}
        <Link className="underline" to="/support">
          Contact Support
        </Link>
      </p>
    </InfoPage>
  );
}
