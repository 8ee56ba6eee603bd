// Marketing copy of the storefront (static text per the spec: ratings, review counts, testimonials).
// The shop's email and phone are not copy: admins maintain them (src/api/contact.ts reads them).
// The hero texts, product cards, price list, contact block and feature switches are the site content an
// administrator edits (GET /api/content/public, useSiteContent below): the browser keeps no copy of them.
import { useQuery } from '@tanstack/react-query';
import { contentPaths, hasSiteContentShape, sitePageMarkers, type ItemType, type SiteContent } from '@shop/contracts';
import { request } from './api/http.js';

export const siteContentKey = ['site-content'] as const;

/**
 * The site content of a GET /api/content/public answer, or null when the answer does not have its shape.
 * Checked with the contracts' hasSiteContentShape (the shape of siteContentSchema, without zod): the home
 * page reads it on every first load, where zod does not fit. The marketing service checks every save with
 * the schema itself (lengths, trimming, whole cents); here the shape the pages render is what is checked.
 */
export function siteContentOf(body: unknown): SiteContent | null {
  if (typeof body !== 'object' || body === null) return null;
  const { success, content } = body as { success?: unknown; content?: unknown };
  return success === true && hasSiteContentShape(content) ? content : null;
}

/** The public site content; an Error when it cannot be loaded (the page then says so and offers Retry). */
export async function loadSiteContent(): Promise<SiteContent> {
  const result = await request<unknown>(contentPaths.public);
  if (!result.ok) throw new Error(`The site content could not be loaded: ${result.error ?? `HTTP ${result.status}`}`);
  const content = siteContentOf(result.data);
  if (!content) throw new Error('The site content could not be loaded: unexpected answer');
  return content;
}

/**
 * The site content the gateway put into this page's HTML (read at the time of the request, at most a few
 * seconds old), when it is there and has the content's shape: the first render uses it instead of waiting
 * for GET /api/content/public, and draws the hero the HTML already shows.
 */
export function pageSiteContent(doc: Pick<Document, 'getElementById'> | undefined = globalThis.document) {
  const text = doc?.getElementById(sitePageMarkers.contentElementId)?.textContent;
  if (!text) return undefined;
  try {
    const content: unknown = JSON.parse(text);
    return hasSiteContentShape(content) ? content : undefined;
  } catch {
    return undefined;
  }
}

/** Re-read every few seconds (the server answers 304 while nothing changed), so a change shows without a reload. */
export function useSiteContent() {
  return useQuery({
    queryKey: siteContentKey,
    queryFn: loadSiteContent,
    // Only while the cache is empty (the first page drawn); dated at the page's load, so once older than
    // staleTime it is read again from the API.
    initialData: () => pageSiteContent(),
    initialDataUpdatedAt: () => globalThis.performance?.timeOrigin,
    staleTime: 5_000,
    refetchInterval: 10_000,
    refetchOnWindowFocus: true,
  });
}

export interface Testimonial {
  quote: string;
  name: string;
  role: string;
}

export const homeRating = { score: '4.9', reviews: '3,247' };

export const homeTestimonials: Testimonial[] = [
  {
    quote:
      'The coins for our battalion change of command came out sharper than the proof. Every soldier asked where we had them made.',
    name: 'SFC Marcus R.',
    role: 'U.S. Army, 1st Cavalry Division',
  },
  {
    quote:
      'We sent a napkin sketch of our station logo and got back a patch design we approved the same day. The crew wears them with pride.',
    name: 'Capt. Dana L.',
    role: 'Fire Rescue, Station 14',
  },
  {
    quote:
      'Fifty shirts in four sizes, all correct, all on time for the reunion. The quote arrived the next morning like they promised.',
    name: 'Chief Petty Officer Ray T. (Ret.)',
    role: 'USS Enterprise Reunion Committee',
  },
];

export const trustPoints = [
  { title: 'Quote in 24 hours', text: 'Every request is reviewed by our team and answered with a quote within a day.' },
  { title: 'Volume pricing', text: 'Bulk pricing from 50 pieces and a volume discount from 100.' },
  { title: 'Proof before production', text: 'You approve the design proof before anything is made.' },
  { title: 'Defect guarantee', text: 'Refund or replacement for defects reported within 30 days.' },
];

export type Branch = 'army' | 'navy' | 'airforce';

export interface BranchContent {
  title: string;
  eyebrow: string;
  lead: string;
  item: ItemType;
  features: Array<{ title: string; text: string }>;
  rating: { score: string; reviews: string };
  testimonials: Testimonial[];
}

export const branches: Record<Branch, BranchContent> = {
  army: {
    title: 'Custom Army Patches',
    eyebrow: 'U.S. Army',
    lead: 'Unit insignia, tab and morale patches built to regulation size, in full color or subdued OCP tones.',
    item: 'patch',
    features: [
      { title: 'Regulation Ready', text: 'Shoulder sleeve insignia and tabs sized and colored for OCP uniforms.' },
      { title: 'Subdued or Full Color', text: 'Embroidered, woven or PVC, with thread colors matched to your design.' },
      { title: 'Hook & Loop Backing', text: 'Velcro-ready backing on every patch, sew-on available on request.' },
    ],
    rating: { score: '4.9', reviews: '1,284' },
    testimonials: [
      {
        quote: 'Our company patches matched the OCP colors perfectly. The whole platoon ordered a second set.',
        name: 'SSG Kevin M.',
        role: '82nd Airborne Division',
      },
      {
        quote: 'Fast quote, clean proof, and the embroidery held up through a full field exercise.',
        name: '1LT Sarah P.',
        role: '10th Mountain Division',
      },
      {
        quote:
          'They fixed our tab lettering in the proof before we even noticed it. Professional from start to finish.',
        name: 'CPT James W.',
        role: '3rd Infantry Division',
      },
    ],
  },
  navy: {
    title: 'Navy Challenge Coins',
    eyebrow: 'U.S. Navy',
    lead: 'Ship, squadron and command coins with anchors, crests and hull numbers struck in brass and finished by hand.',
    item: 'coin',
    features: [
      { title: 'Ship & Command Crests', text: 'Your crest, hull number and motto, die-struck with enamel color fill.' },
      { title: 'Premium Finishes', text: 'Antique gold, polished silver or black nickel, with rope or reeded edges.' },
      { title: 'Deployment Ready', text: 'Individually packed coins, ready to hand out at the next ceremony.' },
    ],
    rating: { score: '4.9', reviews: '962' },
    testimonials: [
      {
        quote: 'Our plank owner coins look incredible. The hull number and crest are crisp even at 1.75 inches.',
        name: 'CMDCM Luis A.',
        role: 'USS Gerald R. Ford',
      },
      {
        quote: 'Ordered 200 coins for the change of command. Quote next day, delivered ahead of schedule.',
        name: 'LCDR Emily S.',
        role: 'Strike Fighter Squadron 103',
      },
      {
        quote: 'The antique gold finish with the rope edge is exactly the old-school look we wanted.',
        name: 'BMC Tony D.',
        role: 'Naval Station Norfolk',
      },
    ],
  },
  airforce: {
    title: 'Air Force Patches',
    eyebrow: 'U.S. Air Force',
    lead: 'Squadron, wing and flight patches with precise detail for flight suits, jackets and morale walls.',
    item: 'patch',
    features: [
      { title: 'Squadron Detail', text: 'Fine lettering and aircraft silhouettes reproduced with woven precision.' },
      { title: 'Flight Suit Ready', text: 'Sized for name tags, shoulder and pocket placements, with hook backing.' },
      { title: 'PVC Morale Patches', text: 'Weatherproof PVC patches in bold colors for morale and heritage designs.' },
    ],
    rating: { score: '4.8', reviews: '1,017' },
    testimonials: [
      {
        quote: 'The woven detail on our squadron patch is better than the original from twenty years ago.',
        name: 'MSgt Andre F.',
        role: '355th Fighter Squadron',
      },
      {
        quote: 'PVC morale patches for the whole flight, delivered in time for the deployment. Great team.',
        name: 'Capt. Nicole H.',
        role: '20th Fighter Wing',
      },
      {
        quote: 'Clear communication, an honest quote and patches that look sharp on the flight suit.',
        name: 'TSgt Brian K.',
        role: 'Air Mobility Command',
      },
    ],
  },
};
