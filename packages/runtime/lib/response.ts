import {approvalReplies} from '@verification-tiers/protocol'

/** What a reply to the Verify checkpoint means. */
export type CheckpointResponse =
  | {kind: 'approval'; text: string}
  /** `feedback` is the reply verbatim; `partial` when the user chose option 3. */
  | {kind: 'rejection'; feedback: string; partial: boolean}

/**
 * Read a reply: `1`, `yes`, `y` or `approved` (any case, trimmed) approve;
 * anything else rejects, with the text kept exactly as given.
 */
export function interpretResponse(text: string): CheckpointResponse {
  const reply = text.trim().toLowerCase()
  if (approvalReplies.includes(reply)) return {kind: 'approval', text}
  return {kind: 'rejection', feedback: text, partial: reply === '3' || reply.startsWith('partial')}
}
