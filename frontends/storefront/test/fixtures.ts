// A complete coin request, the starting point the flow tests vary one field at a time.
import { initialOrderForm, type OrderForm } from '../src/flow/model.js';

export function coinForm(patch: Partial<OrderForm> = {}): OrderForm {
  return {
    ...initialOrderForm(),
    itemType: 'coin',
    designMethod: 'describe',
    description: 'Battalion crest, gold on black',
    size: '1.75',
    finish: 'antique_gold',
    colors: ['Gold', 'Black'],
    firstName: ' Dana ',
    lastName: 'Lopez',
    email: 'dana@example.com',
    shippingAddress: { line1: '1 Main St', line2: '', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
    ...patch,
  };
}
