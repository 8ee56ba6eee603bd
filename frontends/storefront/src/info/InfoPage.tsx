// The frame of the shop's information pages (privacy, terms, legal, business, FAQ, sitemap, support,
// returns): one title, an optional "last updated" line, a back-to-home link, and numbered sections.
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from '@shop/ui/router';
import '../styles.css';

export interface InfoSection {
  id: string;
  heading: string;
  paragraphs?: readonly string[];
  items?: readonly string[];
}

export function InfoPage({
  title,
  updated,
  intro,
  children,
  view,
}: {
  title: string;
  updated?: string;
  intro?: ReactNode;
  children: ReactNode;
  view: string;
}) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10" data-remote="storefront" data-view={view}>
      <Link
        to="/"
        className="inline-flex items-center gap-1 text-sm text-khaki-200 hover:text-khaki-50 hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" /> Back to Home
      </Link>
      <h1 className="mt-4 font-display text-3xl font-bold uppercase tracking-wide text-khaki-50">{title}</h1>
      {updated ? <p className="mt-1 text-sm text-khaki-300">{updated}</p> : null}
      {intro ? <div className="mt-4 text-khaki-200">{intro}</div> : null}
      <div className="mt-8 flex flex-col gap-8">{children}</div>
    </div>
  );
}

/** Sections of text, each a heading with paragraphs and/or a bullet list. */
export function Sections({ sections }: { sections: readonly InfoSection[] }) {
  return (
    <>
      {sections.map((section, index) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`}>
          <h2
            id={`${section.id}-heading`}
            className="font-display text-xl font-bold uppercase tracking-wide text-brass-300"
          >
            {index + 1}. {section.heading}
          </h2>
          {section.paragraphs?.map((p) => (
            <p key={p.slice(0, 40)} className="mt-3 leading-relaxed text-khaki-100">
              {p}
            </p>
          ))}
          {section.items ? (
            <ul className="mt-3 list-disc space-y-1.5 pl-6 text-khaki-100">
              {section.items.map((item) => (
                <li key={item.slice(0, 40)}>{item}</li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
    </>
  );
}
