// The "Message us" entry (site content switch liveChatEnabled): a fixed button on every page that opens
// the support form at /support. There is no live chat service behind it: messages go through the
// support form and the team answers by email.
import { MessageCircle } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useLocation } from '@shop/ui/router';
import { contentPaths, sitePageMarkers } from '@shop/contracts';

// Same rhythm as the storefront's content reads: a switch flipped in the back office shows within seconds.
const REFRESH_MS = 10_000;

interface ContentAnswer {
  content?: { features?: { liveChatEnabled?: unknown } };
}

/**
 * The one switch the shell needs from GET /api/content/public. Read by hand rather than with the
 * contracts' contentResponseSchema: the shell is on every first load and stays without zod (the
 * storefront validates the whole content where it renders it).
 */
export function liveChatSwitchOf(body: unknown): boolean | null {
  if (typeof body !== 'object' || body === null) return null;
  const enabled = (body as ContentAnswer).content?.features?.liveChatEnabled;
  return typeof enabled === 'boolean' ? enabled : null;
}

async function liveChatSwitch(signal: AbortSignal): Promise<boolean | null> {
  try {
    // The public read answers 304 while nothing changed, so the browser's cache keeps this cheap.
    const res = await fetch(contentPaths.public, { signal, headers: { accept: 'application/json' } });
    if (!res.ok) return null;
    return liveChatSwitchOf(await res.json());
  } catch {
    return null;
  }
}

/**
 * The switch in the site content the gateway put into this page's HTML (gateway/src/first-paint.ts, read
 * when the page was requested), or null when the page has none (the admin's pages, a page not served by it).
 */
export function pageLiveChatSwitch(
  doc: Pick<Document, 'getElementById'> | undefined = globalThis.document,
): boolean | null {
  const text = doc?.getElementById(sitePageMarkers.contentElementId)?.textContent;
  if (!text) return null;
  try {
    return liveChatSwitchOf({ content: JSON.parse(text) as unknown });
  } catch {
    return null;
  }
}

export function MessageUs() {
  // The page's own copy first: as current as a read now, without a request during the page's start-up.
  const [pageSwitch] = useState(() => pageLiveChatSwitch());
  const [enabled, setEnabled] = useState(pageSwitch ?? false);
  const { pathname } = useLocation();

  useEffect(() => {
    const abort = new AbortController();
    const read = () =>
      void liveChatSwitch(abort.signal).then((on) => {
        // An unreadable answer keeps what was shown: a brief outage does not make the entry flicker.
        if (on !== null && !abort.signal.aborted) setEnabled(on);
      });
    if (pageSwitch === null) read();
    const timer = window.setInterval(read, REFRESH_MS);
    return () => {
      abort.abort();
      window.clearInterval(timer);
    };
  }, [pageSwitch]);

  // On the support form itself the entry would only point at the page already open.
  if (!enabled || pathname === '/support') return null;
  return (
    <Link
      to="/support"
      data-testid="message-us"
      className="fixed bottom-5 right-5 z-40 inline-flex items-center gap-2 rounded-full bg-brass-400 px-5 py-3 font-semibold text-ink-950 shadow-lg hover:bg-brass-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass-200"
    >
      <MessageCircle aria-hidden="true" className="size-5" />
      Message us
    </Link>
  );
}
