// Home (/): the landing part of the home screen. The guided order flow, the Returning Customer lookup
// and the AI design tool arrive with the quote-request work (issue 4); until then their buttons are
// left out rather than shown doing nothing.
import { catalog, itemTypes } from '@shop/contracts';
import { BadgeCheck, Clock, Medal, ShieldCheck } from 'lucide-react';
import { Card } from '@shop/ui';
import { ItemArt } from '../components/ItemArt.js';
import { Rating } from '../components/Rating.js';
import { RotatingTestimonials } from '../components/Testimonials.js';
import { homeRating, homeTestimonials, itemDescriptions, trustPoints } from '../content.js';
import '../styles.css';

const priceFormat = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
const trustIcons = [Clock, Medal, BadgeCheck, ShieldCheck];

export default function Home() {
  return (
    <div className="flex flex-col" data-remote="storefront">
      <section className="border-b border-olive-800 bg-gradient-to-b from-olive-900 to-ink-950">
        <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-14 sm:py-20">
          <p className="text-sm font-bold uppercase tracking-[0.2em] text-brass-400">Custom military gear</p>
          <h1 className="max-w-3xl font-display text-4xl font-bold uppercase leading-tight tracking-wide text-khaki-50 sm:text-5xl">
            Challenge coins, patches and tactical shirts, made for your unit
          </h1>
          <p className="max-w-2xl text-lg text-khaki-200">
            Tell us what you need and our team sends you a quote within 24 hours. No account needed.
          </p>
          <Rating score={homeRating.score} reviews={homeRating.reviews} />
        </div>
      </section>

      <section aria-labelledby="items-heading" className="mx-auto w-full max-w-6xl px-4 py-12">
        <h2 id="items-heading" className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">
          What we make
        </h2>
        <ul className="mt-6 grid gap-5 md:grid-cols-3">
          {itemTypes.map((type) => {
            const item = catalog[type];
            return (
              <li key={type}>
                <Card className="flex h-full flex-col items-center gap-4 p-6 text-center" data-item={type}>
                  <ItemArt item={type} className="size-28" />
                  <h3 className="font-display text-xl font-bold uppercase tracking-wide text-khaki-50">{item.cardTitle}</h3>
                  <p className="text-sm text-khaki-200">{itemDescriptions[type]}</p>
                  <p className="mt-auto text-khaki-100">
                    From <span className="text-xl font-bold text-brass-300">{priceFormat.format(item.basePrice)}</span>
                  </p>
                </Card>
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-label="Why order with us" className="border-y border-olive-800 bg-olive-900/60">
        <ul className="mx-auto grid max-w-6xl gap-6 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
          {trustPoints.map((point, i) => {
            const Icon = trustIcons[i] ?? ShieldCheck;
            return (
              <li key={point.title} className="flex gap-3">
                <Icon aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-brass-400" />
                <div>
                  <p className="font-semibold text-khaki-50">{point.title}</p>
                  <p className="text-sm text-khaki-300">{point.text}</p>
                </div>
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="reviews-heading" className="mx-auto w-full max-w-3xl px-4 py-12">
        <h2 id="reviews-heading" className="mb-2 font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">
          Trusted by units nationwide
        </h2>
        <div className="mb-6">
          <Rating score={homeRating.score} reviews={homeRating.reviews} />
        </div>
        <RotatingTestimonials testimonials={homeTestimonials} />
      </section>
    </div>
  );
}
