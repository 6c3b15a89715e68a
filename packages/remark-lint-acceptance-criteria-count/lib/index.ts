/**
 * remark-lint rule to warn when a contract has more acceptance criteria than
 * a maximum: a checkpoint with many criteria gets skimmed, not checked.
 */
import {contractRule} from '@verification-tiers/lint-rule'

/** Configuration: the maximum, or an object with it. */
export type Options = number | {max?: number | null | undefined}

const defaultMax = 5

const remarkLintAcceptanceCriteriaCount = contractRule<Options | null | undefined>(
  'acceptance-criteria-count',
  function ({contracts}, file, options, {tool, report}) {
    const given = typeof options === 'number' ? options : (options?.max ?? null)
    // spec-kit, OpenSpec and Kiro ask for as many scenarios as a unit needs: their files are counted against a `max` the user sets, never the default.
    if (tool !== null && given === null) return
    const max = given ?? defaultMax
    if (!Number.isInteger(max) || max < 0) {
      // `fail`, not `throw`: a plain message, without an error’s stack in the report.
      file.fail(`Unexpected value \`${String(max)}\` for \`max\`, expected a whole number of 0 or more`)
    }
    for (let index = 0; index < contracts.length; index++) {
      const contract = contracts[index]
      const extra = contract.criteria[max]
      if (!extra) continue
      report(
        `Unexpected ${contract.criteria.length} acceptance ${contract.criteria.length === 1 ? 'criterion' : 'criteria'} on ${contract.label}, expected at most ${max}`,
        extra.position
      )
    }
  }
)

export default remarkLintAcceptanceCriteriaCount
