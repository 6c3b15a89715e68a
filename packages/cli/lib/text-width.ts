/**
 * Text as a terminal lays it out: the columns a string takes, cut and
 * padded to a width, wrapped at spaces.
 */

// Wide characters (CJK, Hangul, full-width forms, emoji) take two columns of a terminal; combining marks none.
const wide = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u
const combining = /[\u0300-\u036f\u200b-\u200d\ufe00-\ufe0f]/u

function charWidth(char: string): number {
  return combining.test(char) ? 0 : wide.test(char) ? 2 : 1
}

/** Columns `text` takes on a terminal. */
export function displayWidth(text: string): number {
  let total = 0
  for (const char of text) total += charWidth(char)
  return total
}

/** `text` cut to `width` columns, ending in `…` when cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text
  let kept = ''
  let used = 0
  for (const char of text) {
    if (used + charWidth(char) > width - 1) break
    kept += char
    used += charWidth(char)
  }
  return `${kept}…`
}

/** `text` with spaces after it up to `width` columns. */
export function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)))
}

/** `line` broken at spaces into lines of at most `width` columns, the later ones after `indent`. */
export function wrap(line: string, indent: string, width = 80): string {
  const lines: string[] = []
  let rest = line
  while (displayWidth(rest) > width) {
    const cut = rest.lastIndexOf(' ', width)
    if (cut <= indent.length) break
    lines.push(rest.slice(0, cut))
    rest = indent + rest.slice(cut + 1)
  }
  return [...lines, rest].join('\n')
}
