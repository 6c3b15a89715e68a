import type {Position} from 'unist'

/** The lines of `text`, split at every line ending markdown counts: LF, CRLF, or a lone CR. */
export function splitAtLineEndings(text: string): string[] {
  return text.split(/\r\n?|\n/)
}

/**
 * The last line a node holds. A node may end at the first column of the
 * line after its text (an unclosed fence or HTML block in a list item, with
 * the blank line after it): it holds nothing of that line, which starts the
 * next block.
 */
export function lastLineOf(position: Position): number {
  const {start, end} = position
  return end.column === 1 && end.line > start.line ? end.line - 1 : end.line
}

/** `text` without a leading byte order mark: micromark drops it and counts every point from after it. */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}
