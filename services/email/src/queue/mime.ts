// The shop's outgoing message as one MIME text, built directly: a multipart/alternative of the text and
// the HTML part, both base64 (native, where nodemailer's quoted-printable runs in JavaScript), headers
// encoded with nodemailer's own word encoder. nodemailer composing a message through its stream pipeline
// took about as much CPU as sending it (issue 20: two emails per quote request); the transport still
// sends what is built here. Addresses it cannot write as they are (an international domain or mailbox,
// a group) return null, and the caller lets nodemailer compose that message as before.
import { randomBytes } from 'node:crypto';
import addressparser from 'nodemailer/lib/addressparser';
import { encodeWord, encodeWords, foldLines } from 'nodemailer/lib/mime-funcs';
import type { OutgoingMail } from './transport.js';

export interface ComposedMail {
  envelope: { from: string; to: string[] };
  raw: Buffer;
}

interface Mailbox {
  /** As written in a header: `name <address>` or the bare address. */
  header: string;
  address: string;
}

// A printable ASCII address without spaces, quotes or angle brackets: written and sent as it is.
const plainAddress = /^[\x21-\x7e]+@[\x21-\x7e]+$/;
const unsafeInAddress = /[<>"\\,;\s]/;

function displayName(name: string): string {
  if (/^[\w ]*$/.test(name)) return name;
  // Printable ASCII: a quoted string; anything else: an encoded word (as nodemailer writes names).
  if (/^[\x20-\x7e]*$/.test(name)) return `"${name.replace(/([\\"])/g, '\\$1')}"`;
  return encodeWord(name, 'Q', 52);
}

/** The mailboxes of an address field, or null when one needs nodemailer's handling. */
function mailboxes(field: string): Mailbox[] | null {
  // A bare address (a customer's, the usual `to`) needs no parsing.
  if (plainAddress.test(field) && !unsafeInAddress.test(field)) return [{ header: field, address: field }];
  const parsed = addressparser(field, { flatten: true });
  if (parsed.length === 0) return null;
  const out: Mailbox[] = [];
  for (const entry of parsed) {
    const address = entry.address ?? '';
    if (!plainAddress.test(address) || unsafeInAddress.test(address)) return null;
    const name = oneLine(entry.name ?? '');
    out.push({ header: name ? `${displayName(name)} <${address}>` : address, address });
  }
  return out;
}

/** Header values never carry a line break (a subject with one would start a header of its own). */
const oneLine = (value: string) => value.replace(/\r?\n|\r/g, ' ');

const header = (key: string, value: string) => foldLines(`${key}: ${value}`, 76);
const encodedHeader = (key: string, value: string) => header(key, encodeWords(oneLine(value), 'Q', 52));

function base64Lines(text: string): string {
  const encoded = Buffer.from(text, 'utf8').toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < encoded.length; i += 76) lines.push(encoded.slice(i, i + 76));
  return lines.join('\r\n');
}

const ownHeaders = new Set(['from', 'to', 'subject', 'message-id', 'date', 'mime-version', 'content-type']);

/** Custom headers nodemailer would have refused or rewritten are not sent raw here either. */
const headerName = /^[\x21-\x39\x3b-\x7e]+$/;

// The sender is the shop's one configured address: parsed once.
let lastFrom: { field: string; mailboxes: Mailbox[] | null } | undefined;
function fromMailboxes(field: string): Mailbox[] | null {
  if (lastFrom?.field !== field) lastFrom = { field, mailboxes: mailboxes(field) };
  return lastFrom.mailboxes;
}

// Base64 lines never hold '-' or '_', so no part can contain a boundary made of them: a process-wide
// prefix and a counter make it unique per message without drawing random bytes for each.
const boundaryPrefix = `--_shop-${randomBytes(8).toString('hex')}-`;
let boundaries = 0;

export function composeMail(mail: OutgoingMail, now = new Date()): ComposedMail | null {
  const from = fromMailboxes(mail.from);
  const to = mailboxes(mail.to);
  if (!from || from.length !== 1 || !to) return null;
  // The message's own fields win over a custom header of the same name, as with nodemailer.
  const extra = Object.entries(mail.headers ?? {}).filter(([key]) => !ownHeaders.has(key.toLowerCase()));
  if (extra.some(([key]) => !headerName.test(key))) return null;
  const boundary = `${boundaryPrefix}${(boundaries = (boundaries + 1) % Number.MAX_SAFE_INTEGER)}`;
  const lines = [
    ...extra.map(([key, value]) => encodedHeader(key, value)),
    header('From', from[0].header),
    header('To', to.map((m) => m.header).join(', ')),
    encodedHeader('Subject', mail.subject),
    header('Message-ID', oneLine(mail.messageId)),
    header('Date', now.toUTCString().replace(/GMT/, '+0000')),
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(mail.text),
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(mail.html),
    `--${boundary}--`,
    '',
  ];
  return {
    envelope: { from: from[0].address, to: to.map((m) => m.address) },
    raw: Buffer.from(lines.join('\r\n'), 'latin1'),
  };
}
