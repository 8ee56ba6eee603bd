// The home page's first paint in its HTML (issue 20: LCP under 800 ms). Without it nothing shows until
// the shell's scripts, the storefront remote and the content read have all arrived one after another;
// with it the header and the hero (the page's largest paint) come with the HTML, filled from the CURRENT
// site content (the same cached read as the SEO tags, src/seo.ts), every value escaped. The shell draws
// the page over it once the home module has loaded (frontends/shell/src/bootstrap.tsx), with the same
// markup and classes, so nothing moves: the shell's test/first-paint.test.tsx and the storefront's
// test/first-paint.test.tsx compare this markup with what React renders. The shell's stylesheet takes
// its classes from this file too (frontends/shell/src/styles.css, @source).
//
// The site content also goes into the page as JSON (every storefront page): the storefront's first
// render uses it instead of waiting for GET /api/content/public (frontends/storefront/src/content.ts).
import { shopName, sitePageMarkers, type SiteContent } from '@shop/contracts';
import { escapeHtml } from './seo.js';

// Static marketing copy of the hero (frontends/storefront/src/content.ts homeRating).
const RATING = { score: '4.9', reviews: '3,247' };

const NAV_LINK =
  'whitespace-nowrap rounded-md px-2 py-2 text-sm font-semibold uppercase tracking-wide transition-colors sm:px-3';
const NAV_ACTIVE = 'bg-olive-800 text-brass-300';
const NAV_IDLE = 'text-khaki-200 hover:bg-olive-800 hover:text-khaki-50';
// @shop/ui Button, variant "secondary", size "lg".
const BUTTON_SECONDARY_LG =
  'inline-flex items-center justify-center gap-2 rounded-md font-semibold uppercase tracking-wide transition-colors ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass-300 ' +
  'disabled:cursor-not-allowed disabled:opacity-50 ' +
  'border border-khaki-400 text-khaki-100 hover:bg-olive-700 active:bg-olive-800 h-12 px-6 text-base';

const LOGO_MARK =
  '<svg viewBox="0 0 40 40" aria-hidden="true" class="size-9 shrink-0"><circle cx="20" cy="20" r="19" fill="#8f6f1d"></circle><circle cx="20" cy="20" r="16" fill="#d4a93c" stroke="#0c0e09" stroke-width="1.5"></circle><circle cx="20" cy="20" r="12.5" fill="none" stroke="#0c0e09" stroke-width="0.8" stroke-dasharray="1.5 1.5"></circle><path d="M20 10.5l2.6 6.2 6.7.5-5.1 4.4 1.6 6.5L20 24.6l-5.8 3.5 1.6-6.5-5.1-4.4 6.7-.5z" fill="#1a1f14"></path></svg>';

// lucide-react's icons as it renders them (star, user-round, sparkles; the storefront's test compares).
const lucide = (names: string, className: string, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="lucide ${names} ${className}" aria-hidden="true">${body}</svg>`;
const STAR = lucide(
  'lucide-star',
  'size-5 fill-brass-400 text-brass-400',
  '<path d="M11.525 2.295a.53.53 0 0 1 .95 0l2.31 4.679a2.123 2.123 0 0 0 1.595 1.16l5.166.756a.53.53 0 0 1 .294.904l-3.736 3.638a2.123 2.123 0 0 0-.611 1.878l.882 5.14a.53.53 0 0 1-.771.56l-4.618-2.428a2.122 2.122 0 0 0-1.973 0L6.396 21.01a.53.53 0 0 1-.77-.56l.881-5.139a2.122 2.122 0 0 0-.611-1.879L2.16 9.795a.53.53 0 0 1 .294-.906l5.165-.755a2.122 2.122 0 0 0 1.597-1.16z"></path>',
);
const USER_ROUND = lucide(
  'lucide-user-round lucide-user-2',
  'size-5',
  '<circle cx="12" cy="8" r="5"></circle><path d="M20 21a8 8 0 0 0-16 0"></path>',
);
const SPARKLES = lucide(
  'lucide-sparkles lucide-stars',
  'size-5',
  '<path d="M11.017 2.814a1 1 0 0 1 1.966 0l1.051 5.558a2 2 0 0 0 1.594 1.594l5.558 1.051a1 1 0 0 1 0 1.966l-5.558 1.051a2 2 0 0 0-1.594 1.594l-1.051 5.558a1 1 0 0 1-1.966 0l-1.051-5.558a2 2 0 0 0-1.594-1.594l-5.558-1.051a1 1 0 0 1 0-1.966l5.558-1.051a2 2 0 0 0 1.594-1.594z"></path><path d="M20 2v4"></path><path d="M22 4h-4"></path><circle cx="4" cy="20" r="2"></circle>',
);

/** The shell's header (frontends/shell/src/layout/Header.tsx) as drawn on the home page: plain links. */
export function headerHtml(): string {
  const nav = [
    ['/', 'Home', true],
    ['/track', 'Track Order', false],
    ['/admin', 'Admin', false],
  ] as const;
  const items = nav
    .map(
      ([href, label, active]) =>
        `<li><a ${active ? 'aria-current="page" ' : ''}class="${NAV_LINK} ${active ? NAV_ACTIVE : NAV_IDLE}" href="${href}" data-discover="true">${label}</a></li>`,
    )
    .join('');
  return (
    '<header class="sticky top-0 z-30 border-b border-olive-700 bg-ink-950/95 backdrop-blur">' +
    '<div class="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">' +
    `<a class="flex items-center gap-2.5 rounded-md" aria-label="${escapeHtml(shopName)} home" href="/" data-discover="true">${LOGO_MARK}` +
    '<span class="hidden font-display text-lg font-bold uppercase leading-none tracking-wider text-khaki-50 sm:inline">Tactical Gear <span class="text-brass-400">Co.</span></span></a>' +
    `<nav aria-label="Main"><ul class="flex items-center gap-0.5 sm:gap-2">${items}</ul></nav>` +
    '</div></header>'
  );
}

/**
 * The storefront's hero (frontends/storefront/src/pages/HomeHero.tsx) for this content. Its buttons
 * open dialogs that need the scripts: until React's render replaces them they are marked
 * aria-disabled (same look; assistive technology and automated clicks wait for the working ones).
 */
export function heroHtml(content: SiteContent): string {
  const { homepage, features } = content;
  const button = (icon: string, label: string) =>
    `<button type="button" class="${BUTTON_SECONDARY_LG}" aria-disabled="true">${icon} ${label}</button>`;
  return (
    '<section class="border-b border-olive-800 bg-gradient-to-b from-olive-900 to-ink-950">' +
    '<div class="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-14 sm:py-20">' +
    `<p class="text-sm font-bold uppercase tracking-[0.2em] text-brass-400">${escapeHtml(homepage.companyName)}` +
    (homepage.tagline ? `<span class="text-khaki-300"> · ${escapeHtml(homepage.tagline)}</span>` : '') +
    '</p>' +
    '<h1 class="max-w-3xl font-display text-4xl font-bold uppercase leading-tight tracking-wide text-khaki-50 sm:text-5xl" data-testid="hero-title">' +
    `${escapeHtml(homepage.heroTitle)}</h1>` +
    (homepage.heroSubtitle
      ? `<p class="max-w-2xl text-lg text-khaki-200">${escapeHtml(homepage.heroSubtitle)}</p>`
      : '') +
    '<p class="inline-flex flex-wrap items-center gap-2 text-khaki-100">' +
    `<span class="flex" aria-hidden="true">${STAR.repeat(5)}</span>` +
    `<span class="font-semibold">${RATING.score}/5 (${RATING.reviews} reviews)</span></p>` +
    '<div class="flex flex-col gap-3 sm:flex-row">' +
    button(USER_ROUND, 'Returning Customer') +
    (features.aiGenerationEnabled ? button(SPARKLES, 'AI Design Tool (Beta)') : '') +
    '</div></div></section>'
  );
}

/** The shell's layout (frontends/shell/src/layout/AppLayout.tsx) from its start to the opening of <main>. */
export function layoutStartHtml(): string {
  return (
    '<div class="flex min-h-dvh flex-col">' +
    '<a href="#main" class="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-brass-400 focus:px-4 focus:py-2 focus:text-ink-950">Skip to content</a>' +
    headerHtml() +
    '<main id="main" class="flex flex-1 flex-col">'
  );
}

/**
 * What #root holds on the home page until React draws: the shell's layout with the header and the hero,
 * then a screen's height of room, as the storefront's first render has it while the sections below the
 * hero are still coming (frontends/storefront/src/pages/Home.tsx): the page is as tall from the start,
 * so no scroll bar appears later and moves the centred content aside.
 */
export function homeFirstPaint(content: SiteContent): string {
  return `${layoutStartHtml()}<div class="flex flex-col">${heroHtml(content)}<div class="min-h-dvh"></div></div></main></div>`;
}

/** JSON safe inside a script element: no "</script>", no "<!--" (every "<" escaped). */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * The shell's index.html for a storefront page: the site content as JSON after #root and, on the home
 * page, the first paint inside it. An HTML without an empty #root is returned unchanged.
 */
export function withFirstPaint(html: string, content: SiteContent, home: boolean): string {
  const root = '<div id="root"></div>';
  const at = html.indexOf(root);
  if (at < 0) return html;
  // The storefront reads the content by this id; the shell waits for the home module while #root carries
  // the attribute.
  const data = `<script id="${sitePageMarkers.contentElementId}" type="application/json">${scriptJson(content)}</script>`;
  if (!home) return `${html.slice(0, at)}${root}${data}${html.slice(at + root.length)}`;
  const filled = `<div id="root" ${sitePageMarkers.firstPaintAttribute}>${homeFirstPaint(content)}</div>`;
  return `${withWholeFirstPaint(html.slice(0, at))}${filled}${data}${html.slice(at + root.length)}`;
}

/**
 * The page's head with a render-blocking "expect" link to the element after the first paint: a busy
 * browser may otherwise paint the half it has parsed (the header, a button's icon without its label) and
 * then move it as the rest arrives (a layout shift). The browser waits for that element's parsing, never
 * longer than the whole document's; one that does not know the link paints as before.
 */
function withWholeFirstPaint(beforeRoot: string): string {
  const headEnd = beforeRoot.indexOf('</head>');
  if (headEnd < 0) return beforeRoot;
  const expect = `<link rel="expect" href="#${sitePageMarkers.contentElementId}" blocking="render" />`;
  return `${beforeRoot.slice(0, headEnd)}${expect}${beforeRoot.slice(headEnd)}`;
}
