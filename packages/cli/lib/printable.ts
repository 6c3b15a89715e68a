/**
 * User-written text (criteria, steps, names, file names, messages quoting
 * them) as `tiers` prints it: a control character reaching a terminal could
 * move the cursor, erase lines already shown (`ESC [1A ESC [2K`) or reorder
 * what is read (a bidi override), so the person approving would not see what
 * was written. Each such character is shown as an escape instead.
 */

// C0 controls but tab and line feed, DEL, C1 controls, and the characters that change the order or direction of text.
const unsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

const hex = (char: string, width: number) => (char.codePointAt(0) as number).toString(16).padStart(width, '0')

/** `text` with every unsafe character shown as `\xHH` (below U+0100) or `\uHHHH`; tab and line feed kept. */
export function printable(text: string): string {
  return text.replace(unsafe, (char) => (char <= '\u00ff' ? `\\x${hex(char, 2)}` : `\\u${hex(char, 4)}`))
}

/** JSON text with the unsafe characters JSON leaves raw (C1, bidi) written as `\uHHHH` escapes: the same value, safe on a terminal. */
export function printableJson(json: string): string {
  return json.replace(unsafe, (char) => `\\u${hex(char, 4)}`)
}
