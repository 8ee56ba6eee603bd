// A stand-in for Stripe.js (browser tests never go online), served at https://js.stripe.com/... with
// page.route. It has the parts @stripe/react-stripe-js and the payment page use: Stripe(key),
// elements().create('card') with mount/on/off/update/destroy, getElement, confirmCardPayment. The card
// "element" is a plain input (the real one is Stripe's iframe). confirmCardPayment confirms through the
// payments service's test-mode endpoint, so the server really holds a succeeded intent, as it would
// after Stripe confirmed it. Card number 4000002500003155 answers `requires_action` (3-D Secure).
// Calls are recorded in window.__stripeCalls for the test to read.
export const stripeStubSource = String.raw`(() => {
  const calls = (window.__stripeCalls = []);
  function Stripe(publishableKey) {
    calls.push({ call: 'Stripe', publishableKey });
    const created = {};
    function cardElement(options) {
      const handlers = {};
      const emit = (event, payload) => (handlers[event] || []).forEach((h) => h(payload));
      let input = null;
      const element = {
        mount(node) {
          const host = typeof node === 'string' ? document.querySelector(node) : node;
          input = document.createElement('input');
          input.setAttribute('aria-label', 'Stripe card number');
          input.setAttribute('data-stripe-stub', 'card');
          input.disabled = Boolean(options && options.disabled);
          input.addEventListener('input', () => {
            const digits = input.value.replace(/\D/g, '');
            const error = digits.length === 16 && digits.startsWith('1') ? { type: 'validation_error', message: 'Your card number is invalid.' } : undefined;
            emit('change', { elementType: 'card', empty: digits.length === 0, complete: digits.length === 16 && !error, error });
          });
          host.appendChild(input);
          setTimeout(() => emit('ready', element));
        },
        on(event, handler) { (handlers[event] = handlers[event] || []).push(handler); return element; },
        off(event, handler) { handlers[event] = (handlers[event] || []).filter((h) => h !== handler); return element; },
        update(next) { if (input && next && 'disabled' in next) input.disabled = Boolean(next.disabled); },
        destroy() { if (input) input.remove(); input = null; },
        unmount() {}, focus() {}, blur() {}, clear() {},
        value() { return input ? input.value.replace(/\D/g, '') : ''; },
      };
      return element;
    }
    return {
      elements() {
        return {
          create(type, options) { created[type] = cardElement(options); return created[type]; },
          getElement(type) { return created[typeof type === 'string' ? type : type && type.__elementType] || null; },
          update() {},
        };
      },
      async confirmCardPayment(clientSecret, data) {
        const card = data.payment_method.card;
        calls.push({ call: 'confirmCardPayment', clientSecret, billing_details: data.payment_method.billing_details, hasCard: Boolean(card && card.value) });
        const number = card.value();
        const id = clientSecret.split('_secret_')[0];
        if (number === '4000002500003155') return { paymentIntent: { id, status: 'requires_action' } };
        const response = await fetch('/api/payments/test-mode/confirm', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ paymentIntentId: id, clientSecret, card: { number, expMonth: 12, expYear: new Date().getFullYear() + 2, cvc: '123' }, billingDetails: data.payment_method.billing_details }),
        });
        const body = await response.json();
        if (!response.ok) return { error: { type: 'card_error', message: body.error } };
        return { paymentIntent: body.paymentIntent };
      },
      createToken() {}, createPaymentMethod() {},
    };
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();`;
