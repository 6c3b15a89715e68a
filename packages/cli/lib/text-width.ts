/**
 * Text as a terminal lays it out: the columns a string takes (string-width's
 * count: East Asian wide characters and emoji two, combining marks none),
 * cut and padded to a width, wrapped at spaces.
 */
import stringWidth from 'string-width'

/** Columns `text` takes on a terminal. */
export const displayWidth: (text: string) => number = stringWidth

const graphemes = new Intl.Segmenter()

/** `text` cut to `width` columns, ending in `…` when cut; a character (a grapheme: an emoji sequence, a letter and its marks) is never split. */
export function truncate(text: string, width: number): string {
  if (stringWidth(text) <= width) return text
  let kept = ''
  let used = 0
  for (const {segment} of graphemes.segment(text)) {
    const columns = stringWidth(segment)
    if (used + columns > width - 1) break
    kept += segment
    used += columns
  }
  return `${kept}…`
}

/** `text` with spaces after it up to `width` columns. */
export function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - stringWidth(text)))
}

/** `line` broken at spaces into lines of at most `width` columns, the later ones after `indent`. */
export function wrap(line: string, indent: string, width = 80): string {
  const lines: string[] = []
  let rest = line
  while (stringWidth(rest) > width) {
    const cut = rest.lastIndexOf(' ', width)
    if (cut <= indent.length) break
    lines.push(rest.slice(0, cut))
    rest = indent + rest.slice(cut + 1)
  }
  return [...lines, rest].join('\n')
}
