import type {Root} from 'mdast'
import {analyzeContracts} from '@verification-tiers/contracts'
import type {ContractAnalysis} from '@verification-tiers/contracts'
import {lintRule} from 'unified-lint-rule'
import type {Position} from 'unist'
import type {VFile} from 'vfile'

/** Where the rules’ docs live; each rule’s `url` is its readme there. */
export const repositoryUrl = 'https://github.com/verification-tiers/verification-tiers'

/** Docs link of a rule, as messages carry it in `url`. */
export function ruleUrl(ruleId: string): string {
  return `${repositoryUrl}/tree/main/packages/remark-lint-${ruleId}#readme`
}

/** Checks one document’s contracts and reports on `file`. */
export type ContractCheck<Options> = (analysis: ContractAnalysis, file: VFile, options: Options) => void

/**
 * A remark-lint rule over the contract model: origin `remark-lint:<ruleId>`,
 * docs `url`, and the document’s contracts read once per tree and shared with
 * every other rule.
 */
export function contractRule<Options = undefined>(ruleId: string, check: ContractCheck<Options>) {
  return lintRule<Root, Options>({origin: `remark-lint:${ruleId}`, url: ruleUrl(ruleId)}, (tree, file, options) => {
    check(analyzeContracts(tree, file), file, options)
  })
}

/** Extra fields of a message: what was found, and what fixes it (editors offer `expected` as quick fixes). */
export interface ReportFields {
  actual?: string
  expected?: string[]
}

/** Add a message with `place` always set, as editors read only `place`. */
export function report(file: VFile, reason: string, place: Position, fields: ReportFields = {}): void {
  const message = file.message(reason, {place})
  if (fields.actual !== undefined) message.actual = fields.actual
  if (fields.expected !== undefined) message.expected = fields.expected
}

/** Inline code in a message: `` `value` ``. */
export function inlineCode(value: string): string {
  return '`' + value + '`'
}
