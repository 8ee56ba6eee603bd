// Of the email service's email.sent / email.failed events, the ones about a campaign's email: the only
// ones marketing acts on.
export const campaignEmail = ({ data }: { data: { template: string; campaignId?: string; subscriberId?: string } }) =>
  data.template === 'campaign' && Boolean(data.campaignId) && Boolean(data.subscriberId);
