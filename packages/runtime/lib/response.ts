import {approvalReplies, barePartialReplies, bareRejectionReplies, checkpointChoices, replyEndings} from '@verification-tiers/protocol'

/** What a reply to the Verify checkpoint means. */
export type CheckpointResponse =
  | {kind: 'approval'; text: string}
  /** `feedback` is the reply verbatim; `partial` when the user chose option 3 (`3 …`, `partially: …`). */
  | {kind: 'rejection'; feedback: string; partial: boolean}
  /** A bare no (`no`, `2`) or partially (`3`): it says what the user chose, not what is wrong, so nothing is recorded. */
  | {kind: 'needs-description'; text: string; partial: boolean}

/**
 * A reply as the rule of `approvalReplies` compares it: lower case, an
 * emoji's skin tone and presentation marks dropped (`👍🏽` is `👍`), the
 * spaces around dropped and those inside made single, and any `.`, `!` or
 * `)` at the end dropped.
 */
export function normalizeReply(text: string): string {
  let reply = text
    .toLowerCase()
    .replace(/[\u{1F3FB}-\u{1F3FF}\u{FE0E}\u{FE0F}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
  while (reply !== '' && (replyEndings as readonly string[]).includes(reply.at(-1)!)) reply = reply.slice(0, -1).trimEnd()
  return reply
}

/** Option 3 followed by its description: `3 the header…`, `3) …`, `partially: …` (not `30 …` or `partiality`). */
function isPartial(reply: string): boolean {
  return barePartialReplies.some((word) => reply === word || (reply.startsWith(word) && /^[^\p{L}\p{N}]/u.test(reply.slice(word.length))))
}

/**
 * Whether a reply holds an approval among other words (`yes, but the
 * header is wrong`): read as feedback, it may have been meant as an
 * approval, which the person is told how to give.
 */
export function mentionsApproval(text: string): boolean {
  const reply = ` ${normalizeReply(text)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `
  return approvalReplies.some((approval) => /\p{L}/u.test(approval) && reply.includes(` ${approval} `))
}

/**
 * A checkpoint choice typed back as the checkpoint prints it, whole or in
 * part (`1) Yes — mark complete and continue`, `Yes - mark complete and
 * continue`, `2) No`), read as its number: what the person chose, not
 * feedback. Any dash between label and text, and none, reads the same.
 */
function choiceTyped(reply: string): string | null {
  return typedChoices.get(withoutDashes(reply)) ?? null
}

/** A compared reply with the dashes between its words as spaces, and single spaces: a dash before or after it all (`yes-`) is more than the choice. */
const withoutDashes = (reply: string): string =>
  reply
    .replace(/(?<=\S)\s*[\p{Pd}\u2212]+\s*(?=\S)/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()

// Each choice in every form `choiceTyped` takes, compared once: `yes`, `yes mark complete and continue`, `1 yes …`, `1) yes …`.
const typedChoices = new Map(
  checkpointChoices.flatMap(({choice, label, text}) =>
    [label, `${label} ${text}`]
      .map((form) => withoutDashes(normalizeReply(form)))
      .flatMap((form) => [form, `${choice} ${form}`, `${choice}) ${form}`].map((typed) => [typed, choice] as const))
  )
)

/**
 * Read a reply by the rule of `approvalReplies`: exactly an approval reply
 * approves; exactly a bare no or partially asks for the description;
 * anything else (an empty reply too) is feedback, kept exactly as given.
 * Nothing is read inside a longer reply, so an ambiguous one never approves.
 * A checkpoint choice typed back as printed reads as its number.
 */
export function interpretResponse(text: string): CheckpointResponse {
  const normalized = normalizeReply(text)
  const reply = choiceTyped(normalized) ?? normalized
  if (approvalReplies.includes(reply)) return {kind: 'approval', text}
  if (reply === '' || bareRejectionReplies.includes(reply)) return {kind: 'needs-description', text, partial: false}
  if (barePartialReplies.includes(reply)) return {kind: 'needs-description', text, partial: true}
  return {kind: 'rejection', feedback: text, partial: isPartial(reply)}
}
