import {unclearVerdictReason} from '@verification-tiers/protocol/vocabulary'
import type {Verdict} from '@verification-tiers/protocol/vocabulary'

/** A verifier’s reply, read: the verdict, and the rest of the reply (or why it was unclear). */
export interface ParsedVerdict {
  verdict: Verdict
  message: string | null
}

/** Job status a verdict gives: warnings pass, every failure fails. */
export type JobStatus = 'pass' | 'fail'

// Longest phrases first: `PASS_WITH_WARNINGS` before `PASS`, `FAIL_SOFT` before `FAIL`.
// Between words: `_`, or spaces and tabs (extra spacing is still the phrase).
const patterns: ReadonlyArray<[RegExp, Verdict]> = [
  [/^pass(?:_|[ \t]+)with(?:_|[ \t]+)warnings(?![\p{L}\p{N}_])/iu, 'PASS_WITH_WARNINGS'],
  [/^fail(?:_|[ \t]+)soft(?![\p{L}\p{N}_])/iu, 'FAIL_SOFT'],
  [/^fail(?:_|[ \t]+)hard(?![\p{L}\p{N}_])/iu, 'FAIL_HARD'],
  [/^pass(?:ed)?(?![\p{L}\p{N}_])/iu, 'PASS'],
  // A bare failure is the strictest.
  [/^fail(?:ed)?(?![\p{L}\p{N}_])/iu, 'FAIL_HARD']
]

/**
 * Read a verifier’s free-text reply by its first word or phrase, in any case,
 * with `_` or a space between words. Anything unclear is `FAIL_HARD`.
 */
export function parseVerdict(text: string): ParsedVerdict {
  // Markdown emphasis or quotes around the verdict are not part of it.
  const reply = text.trim().replace(/^[*`"'>#\s]+/, '')
  for (const [pattern, verdict] of patterns) {
    const match = pattern.exec(reply)
    if (!match) continue
    const rest = reply
      .slice(match[0].length)
      .replace(/^[*`"'\s]*[:\-—–.]?\s*/, '')
      .trim()
    return {verdict, message: rest === '' ? null : rest}
  }
  return {verdict: 'FAIL_HARD', message: unclearVerdictReason}
}

/** Whether the job passes: `PASS` or `PASS_WITH_WARNINGS`. */
export function isPass(verdict: Verdict): boolean {
  return verdict === 'PASS' || verdict === 'PASS_WITH_WARNINGS'
}

/** Whether the job failed critically: `FAIL_HARD`. */
export function isHardFail(verdict: Verdict): boolean {
  return verdict === 'FAIL_HARD'
}

export function toJobStatus(verdict: Verdict): JobStatus {
  return isPass(verdict) ? 'pass' : 'fail'
}
