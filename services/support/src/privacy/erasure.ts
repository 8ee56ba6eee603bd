// privacy.erasure_requested (issue 16): support keeps the conversations' shape (dates, statuses,
// priorities, deadlines, who answered) and loses what identifies or was written about the customer:
// name, email (the erasure's anonymous address), subject, message, notes and the text of every response;
// return requests lose name, email, description and their photos; the known-orders copy loses name and
// email. Found by the old address (any case) and, for returns and known orders, by the customer's order
// numbers; a replay finds nothing left to change (the address is gone).
import { erasedName, erasedText, sameEmailPattern } from '@shop/contracts';
import { consumeEvent } from '@shop/service-kit';
import type { SupportModels } from '../models/index.js';

export function erasureRequestedConsumer(models: SupportModels) {
  return consumeEvent('privacy.erasure_requested', async (event, { session, log }) => {
    const { email, anonymisedEmail, orderNumbers, erasureId } = event.data;
    const byEmail = { email: sameEmailPattern(email) };
    const mine = { $or: [byEmail, { orderNumber: { $in: orderNumbers } }], email: { $ne: anonymisedEmail } };

    const messages = await models.SupportMessage.find(byEmail).session(session).lean();
    for (const m of messages) {
      await models.SupportMessage.updateOne(
        { _id: m._id },
        {
          $set: {
            name: erasedName,
            email: anonymisedEmail,
            subject: erasedText,
            message: erasedText,
            adminNotes: '',
            responses: (m.responses ?? []).map((r) => ({
              ...r,
              content: erasedText,
              authorName: r.isFromAdmin ? r.authorName : erasedName,
            })),
          },
        },
        { session },
      );
    }

    const returns = await models.ReturnRequest.find(mine).session(session).lean();
    const returnIds = returns.map((r) => String(r._id));
    if (returnIds.length) {
      await models.ReturnPhoto.deleteMany({ returnId: { $in: returnIds } }, { session });
      await models.ReturnRequest.updateMany(
        { _id: { $in: returns.map((r) => r._id) } },
        { $set: { email: anonymisedEmail, customerName: erasedName, description: erasedText, photos: [] } },
        { session },
      );
    }

    const known = await models.KnownOrder.updateMany(
      mine,
      { $set: { email: anonymisedEmail, customerName: erasedName } },
      { session },
    );
    log.info(
      { erasureId, messages: messages.length, returns: returns.length, knownOrders: known.modifiedCount },
      'support data of the customer erased',
    );
  });
}
