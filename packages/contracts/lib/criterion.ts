import type {CriterionCheck} from './types.js'

// `Text -- verified by: `cmd`` (also an em or en dash); `manual` for a human check. The pattern starts at
// the dash, not at the white space before it: from there it took quadratic time (1.3 s for 40,000 spaces in a row).
const checkSuffix = /(?:--|—|–)\s*verified by:\s*(.*?)\s*$/i

/** Split a criterion’s text from the check attached to it. */
export function splitCheck(text: string): {text: string; check: CriterionCheck | null} {
  const match = checkSuffix.exec(text)
  if (!match) return {text, check: null}
  const before = text.slice(0, match.index).trimEnd()
  const how = match[1] ?? ''
  // A command in inline code; words after it (a wrapped note) go back to the criterion’s text.
  const code = /^(`+)\s?(.*?)\s?\1(?!`)(.*)$/.exec(how)
  if (code?.[2]) {
    const note = (code[3] ?? '').trim()
    return {text: before + (note ? ' ' + note : ''), check: {method: 'bash', command: code[2], timeout: null}}
  }
  // Any other way of checking (`manual`, `read the handler and trace it`) is a human check.
  if (how !== '') {
    return {text: before, check: {method: 'manual', command: null, timeout: null}}
  }
  return {text, check: null}
}
