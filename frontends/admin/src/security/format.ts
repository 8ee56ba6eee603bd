// The formatters the security tabs use: the back office's own (en-US dates), plus hours for the trend.
export { formatDateTime, spaced } from '../orders/format.js';
export { reasonOf } from '../orders/api.js';

const hourFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric' });
export const formatHour = (iso: string) => hourFormat.format(new Date(iso));
