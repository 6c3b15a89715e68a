import {inlineCode} from './inline-code.js'
import type {ContractProblem} from './types.js'

/**
 * What a problem of the reader says, in one line (`Unexpected …, expected
 * …`): the same words in the lint rules that report it and in the gate,
 * which counts it against the stop.
 */
export function describeContractProblem(problem: ContractProblem): string {
  switch (problem.kind) {
    case 'yaml-syntax':
      return `Unexpected invalid YAML in frontmatter (${problem.actual}), expected ${problem.expected}`
    case 'field-shape':
      return `Unexpected ${problem.part === 'item' ? 'item of ' : ''}${inlineCode(problem.subject)} as ${problem.actual}, expected ${problem.expected}`
    case 'tier-conflict': {
      const other = problem.otherPlace ? `line ${problem.otherPlace.start.line}` : 'another field'
      return `Unexpected second tier ${inlineCode(problem.actual)} on ${problem.subject}, expected one tier: ${other} gives ${inlineCode(problem.expected)}, and the contract reads as \`verify\``
    }
    case 'unread-heading':
      return `Unexpected contract heading ${inlineCode(problem.subject)} ${problem.actual}, expected a heading the reader sees: ${problem.expected}`
  }
}
