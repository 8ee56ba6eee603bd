import { Star } from 'lucide-react';

/** Static marketing rating text (storefront spec §1: the numbers are fixed copy, not computed). */
export function Rating({ score, reviews }: { score: string; reviews: string }) {
  return (
    <p className="inline-flex flex-wrap items-center gap-2 text-khaki-100">
      <span className="flex" aria-hidden="true">
        {Array.from({ length: 5 }, (_, i) => (
          <Star key={i} className="size-5 fill-brass-400 text-brass-400" />
        ))}
      </span>
      <span className="font-semibold">
        {score}/5 ({reviews} reviews)
      </span>
    </p>
  );
}
