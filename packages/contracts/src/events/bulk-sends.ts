/** Domain events of the bulk-sends module. */
import { z } from 'zod';

/** A row of a batch left `pending`: its message is queued for sending, or it failed and never will be. */
export const batchRowFinished = z.object({
  batchId: z.uuid(),
  recipientId: z.uuid(),
  /** The row's number in the file: its batch's counts are kept per slice of rows (decision 0022). */
  rowNumber: z.number().int(),
  status: z.enum(['queued', 'failed']),
  messageId: z.uuid().nullable(),
});
