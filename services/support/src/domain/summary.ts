// The support inbox's overdue rule and summary counters (admin §3 Summary: total, open, inProgress,
// resolved, closed, high, urgent; plus overdue). A message is overdue while nobody from the shop has
// answered it, it is still open or in progress, and its respond-by deadline has passed.
export interface DeadlineFields {
  status: string;
  respondBy: Date;
  firstResponseAt: Date | null;
}

export const unansweredStatuses = ['open', 'in_progress'] as const;

export function isOverdue(message: DeadlineFields, now: Date): boolean {
  return (
    (unansweredStatuses as readonly string[]).includes(message.status) &&
    !message.firstResponseAt &&
    message.respondBy.getTime() < now.getTime()
  );
}

/** The MongoDB filter of the same rule, for counting and filtering on the server. */
export function overdueFilter(now: Date) {
  return { status: { $in: [...unansweredStatuses] }, firstResponseAt: null, respondBy: { $lt: now } };
}
