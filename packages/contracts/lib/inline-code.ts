/**
 * Inline code holding `value` (backticks included), as messages show what
 * they are about: a run of backticks longer than any in the value delimits
 * it, padded with a space when the value has backticks of its own.
 */
export function inlineCode(value: string): string {
  // Counted in one pass: a subject may be a whole line of a long file, with any number of runs.
  let longest = 0
  let run = 0
  for (let index = 0; index < value.length; index++) {
    run = value.charCodeAt(index) === 0x60 ? run + 1 : 0
    if (run > longest) longest = run
  }
  const delimiter = '`'.repeat(longest + 1)
  const pad = longest > 0 ? ' ' : ''
  return delimiter + pad + value + pad + delimiter
}
