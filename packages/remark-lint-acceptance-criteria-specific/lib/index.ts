/**
 * remark-lint rule to warn when an acceptance criterion is vague prose
 * (“should work”, “works as expected”) with no command attached. A criterion
 * with `-- verified by: \`command\`` passes whatever its words.
 */
import {contractRule, inlineCode} from '@verification-tiers/lint-rule'

/** Phrases that say nothing a person or a command could check. */
export const defaultVaguePhrases: readonly string[] = Object.freeze([
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
])

/** Configuration: the phrases to reject (replacing the defaults), or an object with them. */
export type Options = readonly string[] | {phrases?: readonly string[] | null | undefined}

const remarkLintAcceptanceCriteriaSpecific = contractRule<Options | null | undefined>(
  'acceptance-criteria-specific',
  function ({contracts}, _file, options, {report}) {
    const phrases = Array.isArray(options) ? options : ((options as {phrases?: readonly string[]} | null)?.phrases ?? defaultVaguePhrases)
    const anyPhrase = anyPhrasePattern(phrases)
    for (let index = 0; index < contracts.length; index++) {
      const contract = contracts[index]
      for (let each = 0; each < contract.criteria.length; each++) {
        const criterion = contract.criteria[each]
        // Only a runnable command makes vague words checkable; `verified by: manual` does not.
        const outcome = outcomeOf(criterion.text)
        if (criterion.check?.command || !anyPhrase?.test(outcome)) continue
        for (const phrase of phrases) {
          const found = phrasePattern(phrase).exec(outcome)
          if (!found) continue
          report(
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

// A criterion's condition (Given/When/Then, EARS' WHEN, IF, WHILE, WHERE), opening it or a clause of it (`Renew a loan: WHEN …`), and where its outcome starts.
const condition = /(?:^|[:;])[\s*_`>]*(?:given|when|if|while|where)(?![\p{L}\p{N}])/iu
// A capital Given after a title (`AC3 — Alerts Given the alarm is implemented When …`), as BMAD writes its criteria.
const titledCondition = /(?<![\p{L}\p{N}])(?:Given|GIVEN)(?![\p{L}\p{N}])/u
const outcomeStart = /(?<![\p{L}\p{N}])(?:then|shall)(?![\p{L}\p{N}])/giu

/**
 * The part of a criterion that says what must hold: after the THEN (or
 * SHALL) that follows its condition. Vague words in a condition (`WHEN the
 * export is implemented`) say when, not what to check.
 */
function outcomeOf(text: string): string {
  const found = condition.exec(text) ?? titledCondition.exec(text)
  if (!found) return text
  outcomeStart.lastIndex = found.index + found[0].length
  const start = outcomeStart.exec(text)
  return start ? text.slice(start.index) : text
}

// Compiled once per phrase, and once per list of phrases, not once per file.
const phrasePatterns = new Map<string, RegExp>()
const listPatterns = new Map<string, RegExp | undefined>()

/** Whole words, any case, any white space between words. */
const wordsOf = (phrase: string): string =>
  phrase
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&'))
    .join('\\s+')

/** A pattern of `body` that matches only whole words. */
const wholeWords = (body: string): RegExp => new RegExp(`(?<![\\p{L}\\p{N}])(?:${body})(?![\\p{L}\\p{N}])`, 'iu')

/** The pattern of one phrase. */
function phrasePattern(phrase: string): RegExp {
  let pattern = phrasePatterns.get(phrase)
  if (!pattern) {
    pattern = wholeWords(wordsOf(phrase))
    phrasePatterns.set(phrase, pattern)
  }
  return pattern
}

/**
 * One pattern that matches where any phrase does (`undefined` for no
 * phrases). A criterion it does not match is skipped: V8 compiles a
 * Unicode-aware pattern on its first runs, which costs about a millisecond
 * each, so the phrases' own patterns are compiled only for the rare criterion
 * that holds one of them, where the first phrase of the list is reported.
 */
function anyPhrasePattern(phrases: readonly string[]): RegExp | undefined {
  // The same list (the defaults, a configuration's) comes with every file: known by itself, it is not written out again.
  if (byList.has(phrases)) return byList.get(phrases)
  const key = JSON.stringify(phrases)
  if (!listPatterns.has(key)) listPatterns.set(key, phrases.length > 0 ? wholeWords(phrases.map(wordsOf).join('|')) : undefined)
  const pattern = listPatterns.get(key)
  // A list may change after it was read: only a frozen one is known by itself.
  if (Object.isFrozen(phrases)) byList.set(phrases, pattern)
  return pattern
}

const byList = new WeakMap<readonly string[], RegExp | undefined>()

export default remarkLintAcceptanceCriteriaSpecific
