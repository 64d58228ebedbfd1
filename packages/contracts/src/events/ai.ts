/** Domain events of the ai module. */
import { z } from 'zod';

/** A voice note's words were written down, or could not be (then the assistant reads it as an untranscribed voice note). */
export const voiceNoteTranscribed = z.object({
  messageId: z.uuid(),
  cardId: z.uuid(),
  transcribed: z.boolean(),
});
