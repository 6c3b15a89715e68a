import type {CriterionCheck} from './types.js'

// `Text -- verified by: `cmd`` (also an em or en dash); `manual` for a human check.
const checkSuffix = /\s*(?:--|—|–)\s*verified by:\s*(.*?)\s*$/i
// What every check suffix holds: a text without it (most criteria) has no check, and is not matched against the suffix.
const checkWords = /verified by:/i

/** Split a criterion’s text from the check attached to it. */
export function splitCheck(text: string): {text: string; check: CriterionCheck | null} {
  const match = checkWords.test(text) ? checkSuffix.exec(text) : null
  if (!match) return {text, check: null}
  const how = match[1] ?? ''
  // A command in inline code; words after it (a wrapped note) go back to the criterion’s text.
  const code = /^(`+)\s?(.*?)\s?\1(?!`)(.*)$/.exec(how)
  if (code?.[2]) {
    const note = (code[3] ?? '').trim()
    return {text: text.slice(0, match.index) + (note ? ' ' + note : ''), check: {method: 'bash', command: code[2], timeout: null}}
  }
  // Any other way of checking (`manual`, `read the handler and trace it`) is a human check.
  if (how !== '') {
    return {text: text.slice(0, match.index), check: {method: 'manual', command: null, timeout: null}}
  }
  return {text, check: null}
}
