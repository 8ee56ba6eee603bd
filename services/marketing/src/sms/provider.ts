// Where SMS go: the real twilio SDK when TWILIO_* is configured, otherwise the local development outbox
// (the message stays in `sms_messages`, readable by administrators at GET /api/marketing/sms/outbox).
// TWILIO_API_URL points the SDK at a local fake of Twilio's HTTP API (tests): the SDK's host is fixed,
// so a RequestClient wrapper rewrites the https://api.twilio.com prefix of each request (the twilio
// maintainers' advice for proxies and mocks). The SDK (with axios and its other dependencies, about 4 MiB
// of heap per process) is loaded only when Twilio is configured (issue 20: stack memory).
import { createRequire } from 'node:module';
import type TwilioSdk from 'twilio';
import type { TwilioSettings } from '../config.js';

export interface SmsResult {
  provider: 'twilio' | 'dev_outbox';
  providerId: string | null;
}

export interface SmsProvider {
  readonly name: 'twilio' | 'dev_outbox';
  send(to: string, body: string): Promise<SmsResult>;
}

const twilioHost = /^https:\/\/[a-z0-9.-]*twilio\.com/i;

export function smsProviderFor(settings: TwilioSettings | undefined): SmsProvider {
  if (!settings) {
    return { name: 'dev_outbox', send: async () => ({ provider: 'dev_outbox', providerId: null }) };
  }
  const twilio = createRequire(import.meta.url)('twilio') as typeof TwilioSdk;
  const { RequestClient } = twilio;
  const base = new RequestClient({ autoRetry: true, maxRetries: 2 });
  const httpClient = settings.apiUrl
    ? (Object.assign(Object.create(base), {
        request: (opts: Parameters<typeof base.request>[0]) =>
          base.request({ ...opts, uri: opts.uri.replace(twilioHost, settings.apiUrl!.replace(/\/+$/, '')) }),
      }) as typeof base)
    : base;
  const client = twilio(settings.accountSid, settings.authToken, { httpClient });
  const sender = settings.from.startsWith('MG') ? { messagingServiceSid: settings.from } : { from: settings.from };
  return {
    name: 'twilio',
    async send(to, body) {
      const message = await client.messages.create({ to, body, ...sender });
      if (message.status === 'failed' || message.status === 'undelivered') {
        throw new Error(`Twilio did not accept the message: ${message.errorMessage ?? message.status}`);
      }
      return { provider: 'twilio', providerId: message.sid };
    },
  };
}
