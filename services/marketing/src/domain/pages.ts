// The small public HTML pages of the unsubscribe link (a confirmation page, then the result), in the
// shop's colours. No script: the confirmation is a plain form posting back to the same address.
import { shopName } from '@shop/contracts';

const escapeHtml = (value: string) =>
  value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} | ${escapeHtml(shopName)}</title></head>
<body style="margin:0;background:#1d1f17;color:#ece7da;font-family:Arial,Helvetica,sans-serif">
<main style="max-width:520px;margin:48px auto;padding:32px;background:#2f3524;border:1px solid #4a5138;border-radius:8px">
<p style="margin:0 0 16px;color:#e9d9a6;font-weight:bold;letter-spacing:.5px">${escapeHtml(shopName)}</p>
<h1 style="font-size:22px;margin:0 0 12px">${escapeHtml(title)}</h1>
${body}
</main></body></html>`;
}

export function unsubscribeConfirmPage(email: string): string {
  return page(
    'Unsubscribe from our emails',
    `<p style="line-height:1.5">Stop sending marketing emails to <strong>${escapeHtml(email)}</strong>? Order and quote emails still reach you.</p>
<form method="post"><button type="submit" style="margin-top:12px;padding:10px 18px;background:#c9a54a;color:#1d1f17;border:0;border-radius:6px;font-weight:bold;font-size:15px;cursor:pointer">Unsubscribe</button></form>`,
  );
}

export function unsubscribedPage(email: string): string {
  return page(
    'You are unsubscribed',
    `<p style="line-height:1.5"><strong>${escapeHtml(email)}</strong> will not receive our marketing emails any more.</p>`,
  );
}

export function unknownLinkPage(message: string): string {
  return page('Link not recognised', `<p style="line-height:1.5">${escapeHtml(message)}</p>`);
}
