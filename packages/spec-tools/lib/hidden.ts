import type {Root} from 'mdast'
import {findHiddenHeadings, inlineCode} from '@verification-tiers/contracts'
import type {HeadingShape} from '@verification-tiers/contracts'
import type {FileProblem} from './types.js'

/**
 * The lines of a tool's file that a person reads as a unit heading (`###
 * Requirement 3`, `### Requirement: Pay`) that markdown hid (in a list or a
 * quote, indented, after HTML or a fence opener on its line, inside a
 * comment, an HTML block or an unclosed fence), each a problem naming its
 * line: the unit would be missing from every checkpoint. The detector is
 * the one contract headings have.
 */
export function hiddenUnitHeadings(file: string, text: string, tree: Root, shape: HeadingShape, unit: string): FileProblem[] {
  return findHiddenHeadings(text, tree, shape).map((hidden) => ({
    file,
    line: hidden.place.start.line,
    message: `Unexpected ${unit} heading ${inlineCode(hidden.text)} ${hidden.reason}, expected a heading the reader sees: ${hidden.fix}`
  }))
}
