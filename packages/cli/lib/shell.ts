/**
 * `text` as one shell word, on one line: as it is when plain, in single
 * quotes otherwise, or as `$'…'` when it holds a line break or another
 * control character.
 */
export function shellQuote(text: string): string {
  if (/^[\w@%+=:,./-]+$/.test(text)) return text
  if (!/[\u0000-\u001f\u007f]/.test(text)) return `'${text.replace(/'/g, `'\\''`)}'`
  const escaped = text.replace(/[\\'\u0000-\u001f\u007f]/g, (char) => {
    if (char === '\\' || char === "'") return `\\${char}`
    const named: Record<string, string> = {'\n': '\\n', '\r': '\\r', '\t': '\\t'}
    return named[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`
  })
  return `$'${escaped}'`
}
