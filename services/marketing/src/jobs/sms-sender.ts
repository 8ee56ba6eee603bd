// Sends queued SMS through the provider. A message is claimed with one atomic update (queued -> sending,
// with a lease), sent, then marked sent (the template's usageCount grows) or failed. A claim whose
// sender died is taken over after its lease.
import type { Logger, ServiceContext } from '@shop/service-kit';
import type { CommunicationModels } from '../models/index.js';
import type { SmsMessageDoc } from '../models/sms.js';
import type { SmsProvider } from '../sms/provider.js';

const leaseMs = 60_000;
const maxAttempts = 3;

export class SmsSender {
  private readonly log: Logger;
  constructor(
    private readonly ctx: ServiceContext<CommunicationModels>,
    private readonly provider: SmsProvider,
  ) {
    this.log = ctx.log.child({ component: 'sms-sender' });
  }

  async pass(shouldStop: () => boolean = () => false) {
    const { SmsMessage, SmsTemplate } = this.ctx.models;
    while (!shouldStop()) {
      const now = new Date();
      const message = await SmsMessage.findOneAndUpdate(
        { $or: [{ status: 'queued' }, { status: 'sending', lockedUntil: { $lte: now } }] },
        { $set: { status: 'sending', lockedUntil: new Date(now.getTime() + leaseMs) }, $inc: { attempts: 1 } },
        { sort: { createdAt: 1 }, returnDocument: 'after', lean: true },
      ).lean<SmsMessageDoc>();
      if (!message) return;
      try {
        const result = await this.provider.send(message.to, message.body);
        await SmsMessage.updateOne(
          { _id: message._id, status: 'sending' },
          {
            $set: {
              status: 'sent',
              sentAt: new Date(),
              lockedUntil: null,
              provider: result.provider,
              providerId: result.providerId,
              error: null,
            },
          },
        );
        await SmsTemplate.updateOne({ _id: message.templateId }, { $inc: { usageCount: 1 } });
        this.log.info({ smsId: message._id, provider: result.provider, trigger: message.trigger }, 'SMS sent');
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        const final = message.attempts >= maxAttempts;
        await SmsMessage.updateOne(
          { _id: message._id, status: 'sending' },
          { $set: { status: final ? 'failed' : 'queued', lockedUntil: null, error, provider: this.provider.name } },
        );
        this.log.warn({ smsId: message._id, err: error, final }, final ? 'SMS failed' : 'SMS not sent; will retry');
        if (!final) return; // try again on the next pass rather than spinning on a provider that is down
      }
    }
  }
}
