// The shop's policy texts: plain words, specific to custom military merchandise, and consistent with the
// spec's constants (quotes valid 30 days, 50% deposit, balance before shipping, defect refund or
// replacement within 30 days, binding arbitration, 30-day return window).
import { shopName } from '@shop/contracts';
import type { InfoSection } from './InfoPage.js';

export const privacyUpdated = 'Last updated August 24, 2025';
export const termsUpdated = 'Last Updated: January 2025';

export const privacySections: readonly InfoSection[] = [
  {
    id: 'collect',
    heading: 'What we collect',
    items: [
      'Contact details you give us: name, email address, phone number (optional), shipping and billing addresses.',
      'Order details: the items, sizes, colors, quantities, descriptions and artwork files or AI design prompts you send.',
      'Your customer category (military, first responder or general) and, for tax-exempt orders, the documents you send us.',
      'Support messages and return requests, including any photos you attach.',
      'Technical records: the address and browser of each request to our site, kept for security (blocking abuse) and troubleshooting.',
    ],
  },
  {
    id: 'use',
    heading: 'How we use it',
    paragraphs: [
      'We use your details to prepare quotes, produce and ship your order, take payment, answer your messages, process returns and keep the records the law requires.',
      'We email you about your quote and order. We send marketing email or text messages only if you ticked the subscribe boxes, and every marketing message lets you unsubscribe.',
    ],
  },
  {
    id: 'payments',
    heading: 'Payments',
    paragraphs: [
      'Card payments are handled by our payment provider. Your full card number never reaches our servers; we keep the payment reference, the amount and its status.',
    ],
  },
  {
    id: 'sharing',
    heading: 'Who we share it with',
    paragraphs: [
      'Only with the companies that help us fulfil your order: our payment provider, our email provider, the manufacturer that strikes, embroiders or prints your items, and the carrier that delivers them. We do not sell or rent personal information.',
      'Your artwork and designs are used only to make your order. We never reuse unit insignia, names or designs you send for anyone else.',
    ],
  },
  {
    id: 'keeping',
    heading: 'How long we keep it',
    paragraphs: [
      'Order and payment records are kept as long as tax law requires (usually seven years). Uploaded files that never became part of an order are deleted automatically within days. Verification codes expire after 10 minutes.',
    ],
  },
  {
    id: 'security',
    heading: 'Security',
    paragraphs: [
      'Our site uses encrypted connections. Staff access to orders requires a personal sign-in, and every administrative action is logged.',
    ],
  },
  {
    id: 'rights',
    heading: 'Your choices and rights',
    paragraphs: [
      'You can ask us for a copy of your information, ask us to correct it, or ask us to delete what we are not required to keep. Write to our support address from the email address you used with us.',
    ],
  },
  {
    id: 'children',
    heading: 'Children',
    paragraphs: [`${shopName} does not knowingly collect information from children under 13.`],
  },
  {
    id: 'changes',
    heading: 'Changes to this policy',
    paragraphs: [
      'When we change this policy we update the date above. Important changes are announced on this page before they take effect.',
    ],
  },
  {
    id: 'contact',
    heading: 'Contact',
    paragraphs: ['Questions about privacy: use the Contact Support page or write to the support address shown there.'],
  },
];

export const termsSections: readonly InfoSection[] = [
  {
    id: 'services',
    heading: 'Our services',
    paragraphs: [
      `${shopName} designs and manufactures custom challenge coins, patches and tactical shirts to order. Every order starts as a quote request; nothing is charged until you accept a quote.`,
    ],
  },
  {
    id: 'ordering',
    heading: 'Ordering and pricing',
    items: [
      'Prices shown while you build a request are estimates. The binding price is the one in your written quote.',
      'Quotes are valid for 30 days from the day we send them.',
      'A 50% deposit is required to begin production; the balance is due before shipping.',
      'Volume discounts apply from 50 items. We accept major credit cards, ACH transfers, and government purchase orders for qualified accounts.',
    ],
  },
  {
    id: 'tax',
    heading: 'Tax collection',
    paragraphs: [
      'We collect sales tax where the law requires it, calculated for the shipping address in your quote. Tax exemptions for military units and government agencies may apply in certain states and need a valid exemption certificate before payment.',
    ],
  },
  {
    id: 'design-ip',
    heading: 'Design and intellectual property',
    paragraphs: [
      "You confirm that you own or may use every logo, insignia, name and image you send us. Official emblems of the armed forces may need the service branch's permission; we may ask for it before production and may refuse designs we believe infringe someone's rights.",
      'You keep the rights to your artwork. Proofs and production files we create for you are for your order only.',
    ],
  },
  {
    id: 'ai-designs',
    heading: 'AI-generated designs',
    paragraphs: [
      'Our AI design tool produces concept images from your description. They are starting points: they may resemble existing designs, and we adjust them for production. You are responsible for checking that an AI design suits its purpose before you approve the proof.',
    ],
  },
  {
    id: 'production',
    heading: 'Production and delivery',
    paragraphs: [
      'Production starts after design approval and the deposit. Typical times are stated in our FAQ; rush production is available for an extra charge. Delivery dates from carriers are estimates. APO/FPO addresses are supported.',
    ],
  },
  {
    id: 'quality',
    heading: 'Quality and returns',
    paragraphs: [
      'If an item arrives defective, or differs from the approved proof, we refund or replace it when you tell us within 30 days of delivery. Because every item is made to order, items that match the approved proof cannot be returned for a change of mind. See the Returns and Exchanges page for how to request a return.',
    ],
  },
  {
    id: 'military',
    heading: 'Military and government orders',
    paragraphs: [
      'Unit and agency orders may be paid by government purchase order when the account is approved. We are an independent business and are not affiliated with, or endorsed by, the Department of Defense or any service branch.',
    ],
  },
  {
    id: 'prohibited',
    heading: 'Prohibited uses',
    items: [
      'Designs that impersonate an official award or decoration, or are meant to deceive.',
      "Content that is unlawful, hateful, or infringes someone else's rights.",
      "Misuse of our site: automated scraping, attacks, or attempts to reach other customers' orders.",
    ],
  },
  {
    id: 'liability',
    heading: 'Limitation of liability',
    paragraphs: [
      'Our liability for any order is limited to the amount you paid for it. We are not liable for indirect losses such as a missed ceremony date caused by carrier delays beyond our control.',
    ],
  },
  {
    id: 'law',
    heading: 'Governing law and arbitration',
    paragraphs: [
      'These terms are governed by the laws of the state in which our business is registered. Any dispute that we cannot settle together will be resolved by binding arbitration on an individual basis rather than in court, except claims that qualify for small-claims court.',
    ],
  },
  {
    id: 'changes',
    heading: 'Changes to these terms',
    paragraphs: [
      'We may update these terms; the date above shows the latest version. Orders are governed by the terms in force when the quote was accepted.',
    ],
  },
  { id: 'contact', heading: 'Contact', paragraphs: ['Questions about these terms: use the Contact Support page.'] },
];

export const legalSections: readonly InfoSection[] = [
  {
    id: 'affiliation',
    heading: 'No government affiliation',
    paragraphs: [
      `${shopName} is a private business. We are not affiliated with, endorsed by, or acting for the Department of Defense, the U.S. Army, Navy, Air Force, Marine Corps, Space Force, Coast Guard, or any other government agency. Branch names and insignia appear on products only as our customers request them.`,
    ],
  },
  {
    id: 'liability',
    heading: 'Limitation of liability',
    paragraphs: [
      'Our total liability for any order is limited to the amount paid for it. We are not responsible for indirect or consequential losses, or for delays caused by carriers, customs, or events outside our control.',
    ],
  },
  {
    id: 'tax',
    heading: 'Tax estimates',
    paragraphs: [
      'Prices and tax amounts shown before a quote are estimates. The final tax depends on the shipping address and any exemption certificate, and is stated in your quote. Tax exemption is never assumed from a customer category alone.',
    ],
  },
  {
    id: 'ip',
    heading: 'Intellectual property',
    paragraphs: [
      'Customers are responsible for the rights to the artwork, names and insignia they submit. Our site, its text and images, and our own designs belong to us and may not be copied without permission.',
    ],
  },
  {
    id: 'general',
    heading: 'General disclaimers',
    items: [
      'Colors on screen may differ from the finished metal, thread or fabric.',
      'Product images and AI design previews are illustrations, not the exact finished item.',
      'Customer reviews and ratings shown on our site reflect individual experiences.',
      'Information on this site may change without notice; the quote you accept is what binds us.',
    ],
  },
  {
    id: 'contact',
    heading: 'Legal contact',
    paragraphs: [
      'For legal notices, write to us through the Contact Support page with "Legal" in the subject; we answer within two business days.',
    ],
  },
];

export const businessSections: readonly InfoSection[] = [
  {
    id: 'overview',
    heading: 'Company overview',
    paragraphs: [
      `${shopName} makes custom challenge coins, embroidered and PVC patches, and tactical shirts for military units, first responders, veterans' groups and organisations. Every order is quote-based and made to order.`,
    ],
  },
  {
    id: 'licences',
    heading: 'Licences',
    paragraphs: [
      'We are a registered business holding the state and local business licences our location requires. Official insignia are reproduced only for customers entitled to use them, and with permission where a service branch requires it.',
    ],
  },
  {
    id: 'tax',
    heading: 'Tax compliance',
    paragraphs: [
      'We collect and remit sales tax where we are required to, and honour valid exemption certificates from government agencies and qualified organisations. Certificates are checked before payment and kept with the order.',
    ],
  },
  {
    id: 'pricing',
    heading: 'Pricing and quotes',
    items: [
      'Quotes are free, usually within 24 hours, and valid for 30 days.',
      'A 50% deposit begins production; the balance is due before shipping.',
      'Volume discounts from 50 items; government purchase orders accepted for qualified accounts.',
    ],
  },
  {
    id: 'quality',
    heading: 'Quality standards',
    paragraphs: [
      'Every design goes through a proof you approve before production. Finished items are inspected before shipping, and a defect is refunded or replaced within 30 days.',
    ],
  },
];
