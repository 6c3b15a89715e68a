/** The lines of `text`, split at every line ending markdown counts: LF, CRLF, or a lone CR. */
export function splitAtLineEndings(text: string): string[] {
  return text.split(/\r\n?|\n/)
}

/** `text` without a leading byte order mark: micromark drops it and counts every point from after it. */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}
