/**
 * Inline code holding `value` (backticks included), as messages show what
 * they are about: a run of backticks longer than any in the value delimits
 * it, padded with a space when the value has backticks of its own.
 */
export function inlineCode(value: string): string {
  const longest = (value.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 0)
  const delimiter = '`'.repeat(longest + 1)
  const pad = longest > 0 ? ' ' : ''
  return delimiter + pad + value + pad + delimiter
}
