/**
 * Looks at a text's lines in place (a line ends at an LF or a CR), without
 * cutting it in lines: for the cheap looks that decide whether a block needs
 * reading at all.
 */

/** Where the line that starts at `from` ends: its LF or CR, or the end of `value`. */
export function lineEndOf(value: string, from: number): number {
  let at = from
  while (at < value.length) {
    const code = value.charCodeAt(at)
    if (code === 0x0a || code === 0x0d) return at
    at++
  }
  return at
}

/** Whether `text` has a line ending (an LF or a CR). */
export function hasLineEnding(text: string): boolean {
  return text.includes('\n') || text.includes('\r')
}

/** Where the line after the line ending at `end` starts (past its LF, CRLF or CR), `undefined` at the end of `value`. */
export function lineAfter(value: string, end: number): number | undefined {
  if (end >= value.length) return undefined
  return end + (value.charCodeAt(end) === 0x0d && value.charCodeAt(end + 1) === 0x0a ? 2 : 1)
}

/**
 * `lineEndOf`, where the caller knows whether `value` has a CR: without one
 * (most text), a line ends at the next LF, which `indexOf` finds fastest.
 */
export function lineEndIn(value: string, from: number, lineFeedsOnly: boolean): number {
  if (!lineFeedsOnly) return lineEndOf(value, from)
  const feed = value.indexOf('\n', from)
  return feed === -1 ? value.length : feed
}

/**
 * The first answer `ask` gives about a line of `value` (each given as its
 * start and end offsets), `false` when it gives none: `undefined` means ask
 * the next line. `ask` takes `value` itself, so that callers pass one
 * function made once, not a closure made per text.
 */
export function firstLineAnswer(value: string, ask: (value: string, start: number, end: number) => boolean | undefined): boolean {
  const lineFeedsOnly = !value.includes('\r')
  for (let start = 0; ; ) {
    const end = lineEndIn(value, start, lineFeedsOnly)
    const answer = ask(value, start, end)
    if (answer !== undefined) return answer
    if (end >= value.length) return false
    start = end + 1
  }
}

/** Whether `value` has a `:` between `start` and `end`. */
export function hasColon(value: string, start: number, end: number): boolean {
  const colon = value.indexOf(':', start)
  return colon !== -1 && colon < end
}

/** Whether a character may start a label: `*` (of `**Label:**`), an ASCII letter, or any character outside ASCII. */
export function mayStartWord(code: number): boolean {
  return code === 0x2a || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code > 0x7f
}

const whiteSpace = /\s/

/** Whether a character is white space as `\s` counts it. */
export function isWhiteSpaceCode(code: number): boolean {
  // Most characters are ASCII, where only tab to carriage return and the space are.
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d)
  return whiteSpace.test(String.fromCharCode(code))
}

/** The index of the first character of `text` that is not white space (`text.search(/\S/)`, without a match object), or `-1`. */
export function firstNonWhiteSpace(text: string): number {
  const at = nonWhiteSpaceFrom(text, 0)
  return at === text.length ? -1 : at
}

/** The index of the first character at or after `from` that is not white space (what `trimStart` keeps), or the length of `text`. */
export function nonWhiteSpaceFrom(text: string, from: number): number {
  let at = from
  while (at < text.length && isWhiteSpaceCode(text.charCodeAt(at))) at++
  return at
}

/** Where `text` (or its first `length` characters) ends once trailing white space is cut (what `trimEnd` keeps): `0` for white space alone. */
export function textEnd(text: string, length = text.length): number {
  let end = length
  while (end > 0 && isWhiteSpaceCode(text.charCodeAt(end - 1))) end--
  return end
}
