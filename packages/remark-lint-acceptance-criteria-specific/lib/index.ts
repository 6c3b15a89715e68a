/**
 * remark-lint rule to warn when an acceptance criterion is vague prose
 * (“should work”, “works as expected”) with no command attached. A criterion
 * with `-- verified by: \`command\`` passes whatever its words.
 */
import {contractRule, inlineCode, report} from '@verification-tiers/lint-rule'

/** Phrases that say nothing a person or a command could check. */
export const defaultVaguePhrases: readonly string[] = [
  'should work',
  'works as expected',
  'work as expected',
  'functions as expected',
  'behaves as expected',
  'properly handles',
  'handles properly',
  'handled properly',
  'handled correctly',
  'functions correctly',
  'functions properly',
  'works correctly',
  'works properly',
  'is correct',
  'are correct',
  'is implemented',
  'are implemented',
  'is working',
  'looks good',
  'look good',
  'looks correct',
  'looks right',
  'is user-friendly',
  'is intuitive'
]

/** Configuration: the phrases to reject (replacing the defaults), or an object with them. */
export type Options = readonly string[] | {phrases?: readonly string[] | null | undefined}

const remarkLintAcceptanceCriteriaSpecific = contractRule<Options | null | undefined>(
  'acceptance-criteria-specific',
  function ({contracts}, file, options) {
    const phrases = Array.isArray(options) ? options : ((options as {phrases?: readonly string[]} | null)?.phrases ?? defaultVaguePhrases)
    const matchers = phrases.map((phrase) => ({phrase, pattern: phrasePattern(phrase)}))
    for (const contract of contracts) {
      for (const criterion of contract.criteria) {
        // Only a runnable command makes vague words checkable; `verified by: manual` does not.
        if (criterion.check?.command) continue
        for (const {pattern} of matchers) {
          const found = pattern.exec(criterion.text)
          if (!found) continue
          report(
            file,
            `Unexpected vague criterion ${inlineCode(found[0])} in ${contract.label}, expected an observable outcome or a ${inlineCode('-- verified by:')} check`,
            criterion.position,
            {actual: found[0]}
          )
          break
        }
      }
    }
  }
)

// Compiled once per phrase, not once per file.
const patterns = new Map<string, RegExp>()

/** Whole words, any case, any white space between words. */
function phrasePattern(phrase: string): RegExp {
  let pattern = patterns.get(phrase)
  if (!pattern) {
    const words = phrase.trim().split(/\s+/).map((word) => word.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&'))
    pattern = new RegExp(`(?<![\\p{L}\\p{N}])${words.join('\\s+')}(?![\\p{L}\\p{N}])`, 'iu')
    patterns.set(phrase, pattern)
  }
  return pattern
}

export default remarkLintAcceptanceCriteriaSpecific
