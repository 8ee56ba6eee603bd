// The shop's load journeys: what a visitor, a customer and an admin do, as data. One source for both
// runners: k6 (k6/journeys.js, for real deployments) and the Node runner (src/journeys-run.ts, for
// machines without k6, and the CI smoke test). Plain JavaScript with no imports, so k6 can load it.
//
// A step: { name, method, path, json? | multipart?, headers?, expect: { status: [..], json?: [paths that
// must be present], bodyIncludes? }, save?: { variable: 'json.path' } }. Strings may hold {{variable}}; a
// value that is exactly '{{variable}}' is replaced by the saved value itself (an object, a number).
// Variables given by the runner: baseUrl, unique (different for every journey run), adminEmail,
// adminPassword. Admin steps rely on the session cookie the sign-in step sets (k6's cookie jar; the Node
// runner keeps cookies per journey run).

/** A 1x1 PNG, the smallest artwork the upload check accepts as a real image. */
export const ARTWORK_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The test-mode card that succeeds (contracts' testModeCards.succeeds; a test keeps them equal). */
export const TEST_MODE_CARD_SUCCEEDS = '4242424242424242';

/** A quote request as the storefront's order flow sends it (a 2" antique-gold coin, 50 pieces). */
function quoteRequest(email, overrides) {
  const order = {
    customerName: 'Load Journey Customer',
    email,
    phone: '555-0100',
    itemType: 'coin',
    designMethod: 'describe',
    description: 'An eagle over crossed rifles with our unit motto',
    quantity: 50,
    size: '2',
    colors: ['Gold', 'Blue'],
    finish: 'antique_gold',
    shape: 'Round',
    edge: 'rope',
    features: ['Enamel Fill'],
    estimatedTotal: 1170,
    files: [],
    aiGenerated: false,
    subscribeEmail: false,
    subscribeSMS: false,
    shippingAddress: { line1: '1 Main St', line2: '', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
    customerCategory: 'general',
    taxExempt: false,
  };
  for (const key of Object.keys(overrides || {})) order[key] = overrides[key];
  return order;
}

const placeQuote = {
  name: 'quote request',
  method: 'POST',
  path: '/api/orders',
  headers: { 'Idempotency-Key': 'journey-{{unique}}' },
  json: quoteRequest('journey-{{unique}}@example.com'),
  expect: { status: [201, 200], json: ['order.id', 'order.orderNumber'] },
  save: { orderId: 'order.id', orderNumber: 'order.orderNumber' },
};

const signIn = {
  name: 'admin sign-in',
  method: 'POST',
  path: '/api/auth/login',
  json: { email: '{{adminEmail}}', password: '{{adminPassword}}' },
  expect: { status: [200] },
};

export const journeys = [
  {
    name: 'browse',
    description: 'A visitor opens the home page, the site content it shows, and a branch page',
    steps: [
      { name: 'home page', method: 'GET', path: '/', expect: { status: [200], bodyIncludes: '<script' } },
      { name: 'site content', method: 'GET', path: '/api/content/public', expect: { status: [200] } },
      { name: 'branch page', method: 'GET', path: '/navy-coins', expect: { status: [200], bodyIncludes: '<script' } },
    ],
  },
  {
    name: 'quote-with-upload',
    description: 'A customer uploads artwork (multipart) and sends a quote request carrying it',
    steps: [
      {
        name: 'artwork upload',
        method: 'POST',
        path: '/api/upload',
        multipart: {
          files: [{ field: 'files', filename: 'artwork.png', contentType: 'image/png', base64: ARTWORK_PNG_BASE64 }],
        },
        expect: { status: [200], json: ['files.0.url'] },
        save: { artwork: 'files.0' },
      },
      {
        name: 'quote request with artwork',
        method: 'POST',
        path: '/api/orders',
        headers: { 'Idempotency-Key': 'journey-{{unique}}' },
        json: quoteRequest('journey-{{unique}}@example.com', { designMethod: 'upload', files: ['{{artwork}}'] }),
        expect: { status: [201, 200], json: ['order.orderNumber'] },
      },
    ],
  },
  {
    name: 'tracking',
    description: 'A customer places a quote request, then tracks it by order number and email',
    steps: [
      placeQuote,
      {
        name: 'track',
        method: 'POST',
        path: '/api/orders/track',
        json: { orderNumber: '{{orderNumber}}', email: 'journey-{{unique}}@example.com' },
        expect: { status: [200], json: ['order.status'] },
      },
    ],
  },
  {
    name: 'admin-dashboard',
    description: 'An admin signs in and opens the orders list (page 1, newest first) and a status tab',
    steps: [
      signIn,
      {
        name: 'orders list',
        method: 'GET',
        path: '/api/orders?page=1&pageSize=20',
        expect: { status: [200], json: ['orders'] },
      },
      {
        name: 'orders list, pending tab',
        method: 'GET',
        path: '/api/orders?page=1&pageSize=20&status=pending',
        expect: { status: [200], json: ['orders'] },
      },
    ],
  },
  {
    name: 'test-mode-payment',
    description: 'A customer requests a quote, the admin sends it, the customer pays with the test-mode card',
    steps: [
      placeQuote,
      signIn,
      {
        name: 'admin sends the quote',
        method: 'POST',
        path: '/api/orders/{{orderId}}/generate-quote',
        json: { quoteAmount: 1250, quoteNotes: 'Load journey quote', sendEmail: true },
        expect: { status: [200] },
      },
      {
        name: 'create payment intent',
        method: 'POST',
        path: '/api/payments/create-intent',
        json: { currency: 'usd', metadata: { orderId: '{{orderId}}', orderNumber: '{{orderNumber}}' } },
        expect: { status: [200], json: ['paymentIntent.id', 'paymentIntent.client_secret'] },
        save: { paymentIntentId: 'paymentIntent.id', clientSecret: 'paymentIntent.client_secret' },
      },
      {
        name: 'confirm with the test card',
        method: 'POST',
        path: '/api/payments/test-mode/confirm',
        json: {
          paymentIntentId: '{{paymentIntentId}}',
          clientSecret: '{{clientSecret}}',
          card: { number: TEST_MODE_CARD_SUCCEEDS, expMonth: 12, expYear: 2035, cvc: '123' },
          billingDetails: { name: 'Load Journey Customer', email: 'journey-{{unique}}@example.com' },
        },
        expect: { status: [200] },
      },
    ],
  },
];

/**
 * Thresholds from issue 20's goals, per step (k6 metric tags name:<journey>/<step>). Speed only gates
 * a real deployment's k6 run; the CI smoke run fails on errors, never on speed.
 */
export const thresholds = {
  http_req_failed: ['rate<0.01'],
  checks: ['rate>0.99'],
  // Track read through the whole stack: p99 under 30 ms.
  'http_req_duration{name:tracking/track}': ['p(99)<30'],
  // Quote requests: p99 under 100 ms.
  'http_req_duration{name:tracking/quote request}': ['p(99)<100'],
  'http_req_duration{name:test-mode-payment/quote request}': ['p(99)<100'],
};
