// The support service's collections: the contact config, support messages (with their responses),
// return requests and their photos, and the projection of orders used for the return window.
import type { Connection } from 'mongoose';
import { contactConfigSchema } from './contact-config.js';
import { knownOrderSchema } from './known-order.js';
import { supportMessageSchema } from './message.js';
import { returnPhotoSchema, returnRequestSchema } from './return-request.js';

export function registerModels(connection: Connection) {
  return {
    ContactConfig: connection.model('ContactConfig', contactConfigSchema),
    SupportMessage: connection.model('SupportMessage', supportMessageSchema),
    ReturnRequest: connection.model('ReturnRequest', returnRequestSchema),
    ReturnPhoto: connection.model('ReturnPhoto', returnPhotoSchema),
    KnownOrder: connection.model('KnownOrder', knownOrderSchema),
  };
}
export type SupportModels = ReturnType<typeof registerModels>;
