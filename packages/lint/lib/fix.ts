import type {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {hasOffsets} from './place.js'

/** One fix: text from `start` to `end` (offsets) becomes `value`. */
export interface Fix {
  start: number
  end: number
  value: string
  message: VFileMessage
}

/** A file’s fixes, or why none of them is applied. */
export type FilePlan = {fixes: Fix[]; overlap?: undefined} | {fixes: Fix[]; overlap: [Fix, Fix]}

/**
 * The fixes a file’s messages offer: a message with one `expected` value, a
 * place with offsets, and (when it says what it found) that text at its place.
 * A message with several `expected` values is a choice for the user, not a fix.
 */
export function planFixes(file: VFile): FilePlan {
  const text = String(file.value)
  const fixes: Fix[] = []
  for (const message of file.messages) {
    const expected = message.expected
    if (expected?.length !== 1 || !hasOffsets(message.place)) continue
    const {start, end} = message.place
    const found = text.slice(start.offset, end.offset)
    if (message.actual !== undefined && found !== message.actual) continue
    const value = expected[0] as string
    if (found === value) continue
    fixes.push({start: start.offset, end: end.offset, value, message})
  }
  fixes.sort((a, b) => a.start - b.start || a.end - b.end)
  for (let index = 1; index < fixes.length; index++) {
    const before = fixes[index - 1] as Fix
    const fix = fixes[index] as Fix
    // Two fixes of one place agree if they write the same; any other overlap is left to the user.
    if (fix.start === before.start && fix.end === before.end && fix.value === before.value) {
      fixes.splice(index--, 1)
      continue
    }
    if (fix.start < before.end || (fix.start === before.start && fix.start === fix.end)) return {fixes, overlap: [before, fix]}
  }
  return {fixes}
}

/** `text` with `fixes` applied; the fixes are sorted and do not overlap. */
export function applyFixes(text: string, fixes: readonly Fix[]): string {
  let result = ''
  let from = 0
  for (const fix of fixes) {
    result += text.slice(from, fix.start) + fix.value
    from = fix.end
  }
  return result + text.slice(from)
}
