import type {ContractProblem} from './types.js'

/** Text in inline code, which may itself hold backticks. */
function code(text: string): string {
  const fence = '`'.repeat(Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length)) + 1)
  return fence.length > 1 ? `${fence} ${text} ${fence}` : fence + text + fence
}

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
      return `Unexpected ${problem.part === 'item' ? 'item of ' : ''}${code(problem.subject)} as ${problem.actual}, expected ${problem.expected}`
    case 'tier-conflict': {
      const other = problem.otherPlace ? `line ${problem.otherPlace.start.line}` : 'another field'
      return `Unexpected second tier ${code(problem.actual)} on ${problem.subject}, expected one tier: ${other} gives ${code(problem.expected)}, and the contract reads as \`verify\``
    }
    case 'unread-heading':
      return `Unexpected contract heading ${code(problem.subject)} ${problem.actual}, expected a heading the reader sees: ${problem.expected}`
  }
}
