// A marketing campaign email to one subscriber, in the shop's layout. The administrator's content is
// plain text: every character is escaped, paragraphs and line breaks are kept, and http(s) links become
// tracked links (the marketing service redirects a click to the link at that position of the content).
// It carries an open-tracking image, a visible unsubscribe link to the confirmation page, and the
// RFC 8058 one-click headers (List-Unsubscribe with the same URL, List-Unsubscribe-Post).
import { marketingPaths, shopName, type EventData } from '@shop/contracts';
import { escapeHtml, firstName, layout, type RenderedEmail } from './index.js';

type Campaign = EventData<'campaign.send_requested'>;
type Recipient = Campaign['recipients'][number];

export interface CampaignEmail extends RenderedEmail {
  headers: Record<string, string>;
}

/** Escapes a paragraph of text and turns its links, numbered from `start`, into tracked links. */
function paragraphHtml(
  text: string,
  linkUrl: (index: number) => string,
  start: number,
): { html: string; links: number } {
  const pattern = /https?:\/\/[^\s<>"')\]]+/gi;
  let html = '';
  let last = 0;
  let links = 0;
  for (const match of text.matchAll(pattern)) {
    const raw = match[0];
    const url = raw.replace(/[.,;:!?]+$/, '');
    html += escapeHtml(text.slice(last, match.index));
    html += `<a href="${escapeHtml(linkUrl(start + links))}" style="color:#7a5c12">${escapeHtml(url)}</a>`;
    last = match.index + url.length;
    links += 1;
  }
  html += escapeHtml(text.slice(last));
  return { html: html.replace(/\n/g, '<br>'), links };
}

export function campaignEmail(campaign: Campaign, recipient: Recipient, shopUrl: string): CampaignEmail {
  const unsubscribeUrl = `${shopUrl}${marketingPaths.unsubscribe(recipient.token)}`;
  const linkUrl = (index: number) => `${shopUrl}${marketingPaths.trackClick(recipient.token, index)}`;
  const paragraphs = campaign.content
    .replace(/\r\n/g, '\n')
    .split(/\n{2,}/)
    .filter((p) => p.trim() !== '');
  let linkIndex = 0;
  const body = paragraphs
    .map((p) => {
      const { html, links } = paragraphHtml(p.trim(), linkUrl, linkIndex);
      linkIndex += links;
      return `<p style="margin:0 0 14px">${html}</p>`;
    })
    .join('\n');
  const html = layout(
    campaign.subject,
    `<p style="margin:0 0 14px">Hi ${escapeHtml(firstName(recipient.name))},</p>
${body}
<p style="margin:24px 0 0;font-size:12px;color:#5b5d50">You receive this because you subscribed to ${escapeHtml(shopName)} emails. <a href="${escapeHtml(unsubscribeUrl)}" style="color:#5b5d50">Unsubscribe</a></p>
<img src="${escapeHtml(`${shopUrl}${marketingPaths.trackOpen(recipient.token)}`)}" width="1" height="1" alt="" style="display:block;border:0">`,
  );
  // The text part keeps the content as typed (its links untracked) and the unsubscribe address.
  const text = `Hi ${firstName(recipient.name)},\n\n${campaign.content.trim()}\n\n--\nUnsubscribe: ${unsubscribeUrl}\n`;
  return {
    template: 'campaign',
    subject: campaign.subject,
    html,
    text,
    headers: {
      'List-Unsubscribe': `<${unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
