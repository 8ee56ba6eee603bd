// The three branch landing pages (/army-patches, /navy-coins, /airforce-patches): static marketing
// pages with a hero, three feature cards, a rating block, three testimonials and links to start an
// order on the home page. "Start AI Design" shows only while the site content's AI switch is on.
import { Link } from '@shop/ui/router';
import { Sparkles, PencilRuler } from 'lucide-react';
import { buttonClasses, Card } from '@shop/ui';
import { ItemArt } from '../components/ItemArt.js';
import { Rating } from '../components/Rating.js';
import { TestimonialGrid } from '../components/Testimonials.js';
import { branches, useSiteContent, type Branch } from '../content.js';
import { StorefrontQueries } from '../query.js';
import '../styles.css';

export default function BranchPage({ branch }: { branch: Branch }) {
  return (
    <StorefrontQueries>
      <BranchScreen branch={branch} />
    </StorefrontQueries>
  );
}

function BranchScreen({ branch }: { branch: Branch }) {
  const page = branches[branch];
  // Hidden until the content says the AI tool is on, so a switched-off tool never flashes.
  const aiEnabled = useSiteContent().data?.features.aiGenerationEnabled ?? false;
  return (
    <div className="flex flex-col" data-remote="storefront" data-branch={branch}>
      <section className="border-b border-olive-800 bg-gradient-to-b from-olive-900 to-ink-950">
        <div className="mx-auto grid max-w-6xl items-center gap-8 px-4 py-14 md:grid-cols-[1fr_auto]">
          <div className="flex flex-col gap-5">
            <p className="text-sm font-bold uppercase tracking-[0.2em] text-brass-400">{page.eyebrow}</p>
            <h1 className="font-display text-4xl font-bold uppercase tracking-wide text-khaki-50 sm:text-5xl">
              {page.title}
            </h1>
            <p className="max-w-2xl text-lg text-khaki-200">{page.lead}</p>
            <div className="flex flex-wrap gap-3">
              {/* The home page opens the AI tool when it is reached with this state (href stays "/"). */}
              {aiEnabled ? (
                <Link to="/" state={{ start: 'ai' }} className={buttonClasses('primary', 'lg')}>
                  <Sparkles aria-hidden="true" className="size-5" />
                  Start AI Design
                </Link>
              ) : null}
              <Link to="/" className={buttonClasses(aiEnabled ? 'secondary' : 'primary', 'lg')}>
                <PencilRuler aria-hidden="true" className="size-5" />
                Manual Design
              </Link>
            </div>
          </div>
          <ItemArt item={page.item} className="mx-auto size-48 md:size-64" />
        </div>
      </section>

      <section aria-label="Features" className="mx-auto w-full max-w-6xl px-4 py-12">
        <ul className="grid gap-5 md:grid-cols-3">
          {page.features.map((feature) => (
            <li key={feature.title}>
              <Card className="h-full p-6">
                <h2 className="font-display text-lg font-bold uppercase tracking-wide text-brass-300">
                  {feature.title}
                </h2>
                <p className="mt-2 text-khaki-200">{feature.text}</p>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="branch-reviews" className="mx-auto w-full max-w-6xl px-4 pb-14">
        <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
          <h2 id="branch-reviews" className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">
            What they say
          </h2>
          <Rating score={page.rating.score} reviews={page.rating.reviews} />
        </div>
        <TestimonialGrid testimonials={page.testimonials} />
      </section>
    </div>
  );
}
