// The home page's first screen: the hero (company name and tagline, heading, text, rating, the two
// entry buttons). The gateway sends the same markup in the page's HTML, filled from the current site
// content (gateway/src/first-paint.ts), so the hero is painted before any script runs; React's render
// then replaces it in place. Keep the two in step: test/first-paint.test.tsx compares them.
import { Sparkles, UserRound } from 'lucide-react';
import type { ReactNode } from 'react';
import type { SiteContent } from '@shop/contracts';
import { Button } from '@shop/ui';
import { Rating } from '../components/Rating.js';
import { homeRating } from '../content.js';

export function HomeHero({
  content,
  onLookup,
  onAi,
  children,
}: {
  content: SiteContent;
  onLookup?: () => void;
  onAi?: () => void;
  /** Shown under the buttons (the returning customer's welcome). */
  children?: ReactNode;
}) {
  const { homepage, features } = content;
  return (
    <section className="border-b border-olive-800 bg-gradient-to-b from-olive-900 to-ink-950">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-14 sm:py-20">
        <p className="text-sm font-bold uppercase tracking-[0.2em] text-brass-400">
          {homepage.companyName}
          {homepage.tagline ? <span className="text-khaki-300"> · {homepage.tagline}</span> : null}
        </p>
        <h1
          className="max-w-3xl font-display text-4xl font-bold uppercase leading-tight tracking-wide text-khaki-50 sm:text-5xl"
          data-testid="hero-title"
        >
          {homepage.heroTitle}
        </h1>
        {homepage.heroSubtitle ? <p className="max-w-2xl text-lg text-khaki-200">{homepage.heroSubtitle}</p> : null}
        <Rating score={homeRating.score} reviews={homeRating.reviews} />
        <div className="flex flex-col gap-3 sm:flex-row">
          <Button variant="secondary" size="lg" onClick={onLookup}>
            <UserRound aria-hidden="true" className="size-5" /> Returning Customer
          </Button>
          {features.aiGenerationEnabled ? (
            <Button variant="secondary" size="lg" onClick={onAi}>
              <Sparkles aria-hidden="true" className="size-5" /> AI Design Tool (Beta)
            </Button>
          ) : null}
        </div>
        {children}
      </div>
    </section>
  );
}
