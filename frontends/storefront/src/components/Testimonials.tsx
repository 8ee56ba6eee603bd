import { Pause, Play, Quote } from 'lucide-react';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { cn } from '@shop/ui';
import type { Testimonial } from '../content.js';

/** Spec §9: the home testimonials rotate every 3000 ms. */
export const ROTATION_MS = 3000;

const reducedMotionQuery = '(prefers-reduced-motion: reduce)';

function subscribeReducedMotion(onChange: () => void) {
  const media = window.matchMedia(reducedMotionQuery);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeReducedMotion,
    () => window.matchMedia(reducedMotionQuery).matches,
    () => false,
  );
}

function TestimonialQuote({ testimonial }: { testimonial: Testimonial }) {
  return (
    <figure className="flex h-full flex-col gap-4">
      <Quote aria-hidden="true" className="size-8 text-brass-400" />
      <blockquote className="text-lg leading-relaxed text-khaki-50">“{testimonial.quote}”</blockquote>
      <figcaption className="mt-auto text-sm">
        <span className="font-semibold text-brass-300">{testimonial.name}</span>
        <span className="block text-khaki-300">{testimonial.role}</span>
      </figcaption>
    </figure>
  );
}

/**
 * One testimonial at a time, advancing every 3000 ms. It holds still while the visitor hovers or
 * focuses it, when they press Pause, and always under prefers-reduced-motion (DESIGN.md).
 */
export function RotatingTestimonials({ testimonials }: { testimonials: Testimonial[] }) {
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const [holding, setHolding] = useState(false);
  const reducedMotion = usePrefersReducedMotion();
  const rotating = !reducedMotion && !paused && !holding && testimonials.length > 1;

  useEffect(() => {
    if (!rotating) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % testimonials.length), ROTATION_MS);
    return () => window.clearInterval(timer);
  }, [rotating, testimonials.length]);

  const current = testimonials[index] ?? testimonials[0];
  if (!current) return null;

  return (
    <section
      aria-roledescription="carousel"
      aria-label="What our customers say"
      className="rounded-lg border border-olive-600 bg-olive-900 p-6 sm:p-8"
      onMouseEnter={() => setHolding(true)}
      onMouseLeave={() => setHolding(false)}
      onFocus={() => setHolding(true)}
      onBlur={() => setHolding(false)}
      data-rotating={rotating ? 'true' : 'false'}
    >
      <div aria-live={rotating ? 'off' : 'polite'} className="min-h-44" data-testid="testimonial">
        <TestimonialQuote testimonial={current} />
      </div>
      <div className="mt-6 flex items-center justify-between gap-4">
        <div className="flex gap-2" role="group" aria-label="Choose a testimonial">
          {testimonials.map((t, i) => (
            <button
              key={t.name}
              type="button"
              onClick={() => setIndex(i)}
              aria-label={`Testimonial ${i + 1} of ${testimonials.length}`}
              aria-current={i === index ? 'true' : undefined}
              className={cn(
                'h-2.5 rounded-full transition-all',
                i === index ? 'w-8 bg-brass-400' : 'w-2.5 bg-olive-500 hover:bg-khaki-400',
              )}
            />
          ))}
        </div>
        {reducedMotion ? null : (
          <button
            type="button"
            onClick={() => setPaused((p) => !p)}
            className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-sm text-khaki-200 hover:bg-olive-800 hover:text-khaki-50"
          >
            {paused ? <Play aria-hidden="true" className="size-4" /> : <Pause aria-hidden="true" className="size-4" />}
            {paused ? 'Play' : 'Pause'}
          </button>
        )}
      </div>
    </section>
  );
}

/** All testimonials side by side (the branch pages show three at once). */
export function TestimonialGrid({ testimonials }: { testimonials: Testimonial[] }) {
  return (
    <ul className="grid gap-4 md:grid-cols-3">
      {testimonials.map((t) => (
        <li key={t.name} className="rounded-lg border border-olive-600 bg-olive-900 p-6">
          <TestimonialQuote testimonial={t} />
        </li>
      ))}
    </ul>
  );
}
