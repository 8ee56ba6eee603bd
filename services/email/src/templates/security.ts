// The team's notice of a high or critical security alert (admin part B §2.3 Alerts): what happened,
// from which address, and where to look (the back office's Security view). Same layout and escaping
// as the shop's other emails.
import type { EventData } from '@shop/contracts';
import {
  dateTime,
  escapeHtml,
  layout,
  rowsHtml,
  rowsText,
  safeLink,
  shopName,
  type RenderedEmail,
  type Row,
} from './index.js';

const severityLabel = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function securityAlertEmail(data: EventData<'alert.raised'>, shopUrl: string): RenderedEmail {
  const subject = `[${severityLabel(data.severity)}] Security alert: ${data.description}`.slice(0, 200);
  const rows: Row[] = [
    ['Severity', severityLabel(data.severity)],
    ['Type', data.type],
    ['Address', data.ip],
    ['Raised', dateTime(data.raisedAt)],
  ];
  const adminUrl = `${shopUrl}/admin`;
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px">Security alert</h1>
<p style="margin:0 0 12px">${escapeHtml(data.description)}</p>
${rowsHtml(rows)}
<p style="margin:12px 0">Review it, ban the address if needed, and resolve the alert in the back office (Security): ${safeLink(adminUrl, adminUrl)}</p>`,
  );
  const text = [
    'Security alert',
    '',
    data.description,
    '',
    rowsText(rows),
    '',
    `Review it, ban the address if needed, and resolve the alert in the back office (Security): ${adminUrl}`,
    '',
    shopName,
  ].join('\n');
  return { template: 'security_alert', subject, html, text };
}
