// The FAQ (storefront §3 FAQ entry: id, category, question, answer; §9 static facts). Where the spec
// gives two readings of a fact (production times, free shipping threshold) the answer states both
// honestly: the standard figures and the shorter ones quoted for simple designs.
export const faqCategories = [
  'Ordering Process',
  'Pricing & Payment',
  'Production & Timeline',
  'Shipping & Delivery',
  'Quality & Specifications',
] as const;
export type FaqCategory = (typeof faqCategories)[number];

export interface FaqEntry {
  id: string;
  category: FaqCategory;
  question: string;
  answer: string;
}

export const faqEntries: readonly FaqEntry[] = [
  {
    id: 'how-order',
    category: 'Ordering Process',
    question: 'How do I place an order?',
    answer:
      'Choose Challenge Coins, Custom Patches or Tactical Shirts on the home page, describe or upload your design, pick the specifications and send the request. We reply with a quote, usually within 24 hours, and a link to pay it.',
  },
  {
    id: 'modify',
    category: 'Ordering Process',
    question: 'Can I change my order after submitting it?',
    answer: 'Yes. Orders can be modified within 24 hours of submitting them. Contact support with your order number.',
  },
  {
    id: 'proof',
    category: 'Ordering Process',
    question: 'Will I see a proof before production?',
    answer:
      'Always. We send a digital proof; please approve it or ask for changes within 48 hours so your timeline holds.',
  },
  {
    id: 'artwork',
    category: 'Ordering Process',
    question: 'What artwork files can I upload?',
    answer:
      'JPG, PNG, PDF, SVG, AI or EPS files, up to 10 MB each. No artwork? Describe your idea or try the AI design tool.',
  },
  {
    id: 'prices',
    category: 'Pricing & Payment',
    question: 'How much do custom items cost?',
    answer:
      'Typical unit prices are $3-8 for challenge coins, $2-6 for patches and $15-35 for shirts, depending on size, finish and quantity. Your quote gives the exact price.',
  },
  {
    id: 'volume',
    category: 'Pricing & Payment',
    question: 'Do you offer volume discounts?',
    answer: 'Yes, volume discounts start at 50 pieces, with larger savings from 100.',
  },
  {
    id: 'military-discount',
    category: 'Pricing & Payment',
    question: 'Is there a military discount?',
    answer:
      'Yes, active duty and veterans receive a 10% military discount. Tax exemptions may apply in certain states; contact support for exemption certificates.',
  },
  {
    id: 'payment',
    category: 'Pricing & Payment',
    question: 'How do I pay?',
    answer:
      'A 50% deposit is required to begin production and the balance is due before shipping. We accept major credit cards, ACH transfers and government purchase orders for qualified accounts. Quotes are valid for 30 days.',
  },
  {
    id: 'production-time',
    category: 'Production & Timeline',
    question: 'How long does production take?',
    answer:
      'After design approval, our standard production times are 10-15 business days for coins, 7-12 for patches and 12-18 for shirts. Simple designs are often quicker: 10-14 business days for coins, 7-10 for patches and 5-7 for shirts. Your quote states the time for your order.',
  },
  {
    id: 'rush',
    category: 'Production & Timeline',
    question: 'Can I get a rush order?',
    answer:
      'Yes. Rush production takes 3-5 business days and costs 50% extra. Ask for it in your request or contact support.',
  },
  {
    id: 'shipping-cost',
    category: 'Shipping & Delivery',
    question: 'How much is shipping?',
    answer:
      'Standard shipping is free on orders over $500. Some promotions have offered free shipping from $150; your quote shows what applies to your order.',
  },
  {
    id: 'apo',
    category: 'Shipping & Delivery',
    question: 'Do you ship to APO/FPO addresses?',
    answer: 'Yes. We ship across the United States and Canada, including APO/FPO addresses.',
  },
  {
    id: 'tracking',
    category: 'Shipping & Delivery',
    question: 'How do I track my order?',
    answer:
      'Use Track Order with your order number and email address; no account is needed. Tracking numbers appear there once your order ships.',
  },
  {
    id: 'materials',
    category: 'Quality & Specifications',
    question: 'What materials and finishes are available?',
    answer:
      'Coins come in finishes such as antique brass, gold, silver and black nickel with options for shape and edge; patches can be embroidered, woven or PVC; shirts come in cotton and performance fabrics. The order form lists every option for each item.',
  },
  {
    id: 'defects',
    category: 'Quality & Specifications',
    question: 'What if my items arrive damaged or defective?',
    answer:
      'Tell us within 30 days of delivery through the Returns and Exchanges page, with photos. We send a prepaid label within 24 hours and refund or replace defective items.',
  },
];
