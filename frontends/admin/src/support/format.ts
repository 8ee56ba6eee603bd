// en-US short dates of the support view (admin §9: 'Support list dates use the en-US short format').
export const shortDate = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { dateStyle: 'short', timeStyle: 'short' });
