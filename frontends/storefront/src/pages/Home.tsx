// Home (/): the landing (item cards, Returning Customer, the AI tool, trust banner, rating,
// testimonials), the guided order flow (steps 0 to 7), the AI design generator, the lookup modal and
// the item customizer (storefront §2).
import { useMutation } from '@tanstack/react-query';
import { ArrowRight, BadgeCheck, Check, Clock, Mail, Medal, MessageCircle, Phone, ShieldCheck } from 'lucide-react';
import { Suspense, lazy, useDeferredValue, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from '@shop/ui/router';
import { formatMoney, itemTypes, priceListOf, type ItemType, type SiteContent } from '@shop/contracts';
import { Alert, Button, Card, ErrorState, Skeleton, toast } from '@shop/ui';
import { createCustomizerOrder, type GeneratedDesign } from '../api/shop.js';
import { ItemArt } from '../components/ItemArt.js';
import { Rating } from '../components/Rating.js';
import { RotatingTestimonials } from '../components/Testimonials.js';
import { HomeHero } from './HomeHero.js';
import { homeRating, homeTestimonials, trustPoints, useSiteContent } from '../content.js';
import { telHref } from '../api/phone.js';
import { customizerItemOf, customizerOrderBody, type CustomizerDraft } from '../customizer/model.js';
import { fallbackOrderNumber } from '../flow/model.js';
import { newIdempotencyKey, splitName, useOrderFlow } from '../flow/useOrderFlow.js';
import { StorefrontQueries } from '../query.js';
import '../styles.css';

// The quote flow and the AI designer open on a click: their code loads then, not with the home page.
const OrderFlow = lazy(() => import('../flow/OrderFlow.js').then((m) => ({ default: m.OrderFlow })));
const AiDesigner = lazy(() => import('../ai/AiDesigner.js').then((m) => ({ default: m.AiDesigner })));
// So do the saved-details lookup and the customizer (forms, file drop): mounted once first opened, then
// kept, so their closing transitions still play.
const LookupModal = lazy(() => import('../lookup/LookupModal.js').then((m) => ({ default: m.LookupModal })));
const ItemCustomizer = lazy(() =>
  import('../customizer/ItemCustomizer.js').then((m) => ({ default: m.ItemCustomizer })),
);

const trustIcons = [Clock, Medal, BadgeCheck, ShieldCheck];

type View = 'landing' | 'flow' | 'ai';

/** While the site content loads: the hero and the three cards as placeholders. */
function LandingLoading() {
  return (
    <div
      className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-14"
      aria-busy="true"
      aria-label="Loading the shop"
    >
      <Skeleton className="h-4 w-48" />
      <Skeleton className="h-12 w-full max-w-3xl" />
      <Skeleton className="h-6 w-full max-w-2xl" />
      <div className="grid gap-5 md:grid-cols-3">
        {itemTypes.map((t) => (
          <Skeleton key={t} className="h-80 w-full" />
        ))}
      </div>
    </div>
  );
}

/** The contact block of the site content; "Message us" opens the support form (there is no live chat). */
function ContactBlock({ content }: { content: SiteContent }) {
  const { contact, homepage, features } = content;
  if (!contact.email && !contact.phone && !contact.address && !contact.businessHours && !features.liveChatEnabled)
    return null;
  return (
    <section
      aria-labelledby="contact-heading"
      className="border-t border-olive-800 bg-olive-900/60"
      data-testid="home-contact"
    >
      <div className="mx-auto grid max-w-6xl gap-4 px-4 py-10 sm:grid-cols-2">
        <div>
          <h2 id="contact-heading" className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">
            Contact {homepage.companyName}
          </h2>
          {homepage.description ? <p className="mt-2 text-sm text-khaki-200">{homepage.description}</p> : null}
        </div>
        <ul className="flex flex-col gap-2 text-khaki-100">
          {contact.email ? (
            <li className="flex items-center gap-2">
              <Mail aria-hidden="true" className="size-4 text-brass-400" />{' '}
              <a className="underline" href={`mailto:${contact.email}`}>
                {contact.email}
              </a>
            </li>
          ) : null}
          {contact.phone ? (
            <li className="flex items-center gap-2">
              <Phone aria-hidden="true" className="size-4 text-brass-400" />{' '}
              <a className="underline" href={telHref(contact.phone)}>
                {contact.phone}
              </a>
            </li>
          ) : null}
          {contact.address ? <li className="whitespace-pre-line">{contact.address}</li> : null}
          {contact.businessHours ? <li className="text-sm text-khaki-300">{contact.businessHours}</li> : null}
          {features.liveChatEnabled ? (
            <li>
              <Link to="/support" className="inline-flex items-center gap-2 font-semibold text-brass-300 underline">
                <MessageCircle aria-hidden="true" className="size-4" /> Message us
              </Link>
              <span className="block text-xs text-khaki-300">Opens the support form; our team answers by email.</span>
            </li>
          ) : null}
        </ul>
      </div>
    </section>
  );
}

/** The landing below the hero: item cards, trust banner, rating and testimonials, contact. */
function BelowHero({ content, onStart }: { content: SiteContent; onStart: (t: ItemType) => void }) {
  const { products } = content;
  return (
    <>
      <section aria-labelledby="items-heading" className="mx-auto w-full max-w-6xl px-4 py-12">
        <h2 id="items-heading" className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">
          What we make
        </h2>
        <ul className="mt-6 grid gap-5 md:grid-cols-3">
          {itemTypes.map((type) => {
            const item = products[type];
            return (
              <li key={type}>
                <Card className="flex h-full flex-col items-center gap-4 p-6 text-center" data-item={type}>
                  <ItemArt item={type} className="size-28" />
                  <h3 className="font-display text-xl font-bold uppercase tracking-wide text-khaki-50">{item.title}</h3>
                  {item.description ? <p className="text-sm text-khaki-200">{item.description}</p> : null}
                  {item.features.length > 0 ? (
                    <ul className="flex flex-col gap-1 text-left text-sm text-khaki-200">
                      {item.features.map((f) => (
                        <li key={f} className="flex gap-2">
                          <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brass-400" /> {f}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                  <p className="mt-auto text-khaki-100" data-testid={`price-${type}`}>
                    From <span className="text-xl font-bold text-brass-300">{formatMoney(item.basePrice)}</span>
                  </p>
                  <Button className="w-full" onClick={() => onStart(type)}>
                    Start Order<span className="sr-only"> for {item.title}</span>{' '}
                    <ArrowRight aria-hidden="true" className="size-4" />
                  </Button>
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
      <ContactBlock content={content} />
    </>
  );
}

// Whether the landing was drawn before in this page's life.
let landingShown = false;

function Landing({
  content,
  onStart,
  onLookup,
  onAi,
  welcome,
}: {
  content: SiteContent;
  onStart: (t: ItemType) => void;
  onLookup: () => void;
  onAi: () => void;
  welcome: string | null;
}) {
  // On the page's first load the hero comes first, in the render that replaces the HTML's first paint,
  // and the sections below it in a second, deferred render, so neither holds the main thread long (Total
  // Blocking Time on a phone). Later visits draw it all at once (the router's scroll restoration needs
  // the whole page).
  const [firstLoad] = useState(() => !landingShown);
  useEffect(() => {
    landingShown = true;
  }, []);
  const belowHero = useDeferredValue(true, !firstLoad);
  return (
    <>
      <HomeHero content={content} onLookup={onLookup} onAi={onAi}>
        {welcome ? <Alert tone="success">{welcome}</Alert> : null}
      </HomeHero>

      {/* Until then a screen's height of room keeps the shell's footer below the fold, so the sections
          arriving do not push anything visible (no layout shift). */}
      {belowHero ? <BelowHero content={content} onStart={onStart} /> : <div className="min-h-dvh" />}
    </>
  );
}

function HomeScreen() {
  const flow = useOrderFlow();
  const site = useSiteContent();
  const aiEnabled = site.data?.features.aiGenerationEnabled ?? false;
  const prices = site.data ? priceListOf(site.data) : undefined;
  const location = useLocation();
  // "Start AI Design" on a branch page arrives with { start: 'ai' }.
  const [view, setView] = useState<View>(() =>
    (location.state as { start?: string } | null)?.start === 'ai' ? 'ai' : 'landing',
  );
  const [lookupOpen, setLookupOpen] = useState(false);
  const [lookupMounted, setLookupMounted] = useState(false);
  if (lookupOpen && !lookupMounted) setLookupMounted(true);
  const [welcome, setWelcome] = useState<string | null>(null);
  const [designs, setDesigns] = useState<GeneratedDesign[]>([]);
  const [customizing, setCustomizing] = useState<GeneratedDesign | null>(null);
  const [customizerError, setCustomizerError] = useState<string | null>(null);
  // One Idempotency-Key per distinct customizer order: a retry of the same draft reuses it.
  const customizerKey = useRef<{ key: string; body: string } | null>(null);

  // Following a link to / (the header's Home, a branch page's buttons) shows the landing or the AI tool
  // again, even when the home page is already mounted.
  const firstKey = useRef(location.key);
  useEffect(() => {
    if (location.key === firstKey.current) return;
    firstKey.current = location.key;
    setView((location.state as { start?: string } | null)?.start === 'ai' ? 'ai' : 'landing');
  }, [location.key, location.state]);

  // A new screen starts at its top (the flow, the AI tool and the landing are long on a phone).
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [view, flow.step]);

  const customizerOrder = useMutation({
    mutationFn: ({ design, draft }: { design: GeneratedDesign; draft: CustomizerDraft }) => {
      const body = customizerOrderBody(customizerItemOf(design.itemType, prices), draft, design.prompt, design.id);
      const json = JSON.stringify(body);
      if (customizerKey.current?.body !== json) customizerKey.current = { key: newIdempotencyKey(), body: json };
      return createCustomizerOrder(body, customizerKey.current.key);
    },
    onSuccess: (order, { design, draft }) => {
      customizerKey.current = null;
      setCustomizing(null);
      flow.confirm(order.orderNumber || fallbackOrderNumber(design.itemType), {
        itemType: design.itemType,
        ...splitName(`${draft.firstName} ${draft.lastName}`),
        email: draft.email.trim(),
      });
      setView('flow');
      toast.success('Order placed');
    },
    onError: (error) => {
      setCustomizerError(error.message);
      toast.error(error.message);
    },
  });

  return (
    <div className="flex flex-col" data-remote="storefront" data-view={view}>
      {site.isPending && view !== 'flow' ? <LandingLoading /> : null}
      {site.isError && !site.data && view !== 'flow' ? (
        <div className="mx-auto w-full max-w-3xl px-4 py-14">
          <ErrorState
            title="The shop could not be loaded"
            message={site.error.message}
            onRetry={() => void site.refetch()}
            retrying={site.isFetching}
          />
        </div>
      ) : null}
      {site.data && (view === 'landing' || (view === 'ai' && !aiEnabled)) ? (
        <Landing
          content={site.data}
          welcome={welcome}
          onStart={(type) => {
            flow.startWithItem(type);
            setView('flow');
          }}
          onLookup={() => setLookupOpen(true)}
          onAi={() => setView('ai')}
        />
      ) : null}
      <Suspense fallback={null}>
        {view === 'flow' ? <OrderFlow flow={flow} onExit={() => setView('landing')} /> : null}
        {view === 'ai' && aiEnabled ? (
          <AiDesigner
            designs={designs}
            onDesign={(d) => setDesigns((list) => [d, ...list.filter((x) => x.id !== d.id)].slice(0, 4))}
            onFinalize={(d) => {
              flow.finalizeAiDesign(d.itemType, d.prompt, d.id);
              setView('flow');
            }}
            onCustomize={(d) => {
              customizerKey.current = null;
              setCustomizerError(null);
              setCustomizing(d);
            }}
            onBack={() => setView('landing')}
          />
        ) : null}
      </Suspense>

      <Suspense fallback={null}>
        {lookupMounted ? (
          <LookupModal
            open={lookupOpen}
            onOpenChange={setLookupOpen}
            onUse={(customer) => {
              flow.prefill(customer);
              setWelcome(
                `Welcome back, ${customer.customerName}. Your saved details will be filled in: choose an item to start.`,
              );
              toast.success('Your saved details are ready');
            }}
          />
        ) : null}
        {view === 'ai' || customizing !== null ? (
          <ItemCustomizer
            open={customizing !== null}
            onClose={() => setCustomizing(null)}
            item={customizing ? customizerItemOf(customizing.itemType, prices) : null}
            aiDesign={customizing ? { prompt: customizing.prompt, imageUrl: customizing.imageUrl } : null}
            submitting={customizerOrder.isPending}
            error={customizerError}
            onComplete={(draft) => {
              if (!customizing || customizerOrder.isPending) return;
              setCustomizerError(null);
              customizerOrder.mutate({ design: customizing, draft });
            }}
          />
        ) : null}
      </Suspense>
    </div>
  );
}

export default function Home() {
  return (
    <StorefrontQueries>
      <HomeScreen />
    </StorefrontQueries>
  );
}
