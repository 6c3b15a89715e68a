/**
 * “Did you mean”: the known names nearest a mistyped one, by the
 * Damerau–Levenshtein distance (optimal string alignment: insertions,
 * deletions, substitutions and swaps of two neighbours each count one),
 * within a bound that grows with the name's length, so a short name's
 * suggestions stay close and an unrelated word gets none.
 */
import {editDistance} from '@verification-tiers/contracts/edit-distance'

/** The most edits a suggestion of `name` may be away: 1 up to 5 characters, 2 up to 8, 3 beyond. */
export function suggestionBound(name: string): number {
  return Math.min(3, Math.max(1, Math.floor(name.length / 3)))
}

/**
 * The names in `known` nearest `given` (case ignored), all those at the
 * least distance, in `known`'s order; none when the nearest is beyond the
 * bound of the known name.
 */
export function suggest(given: string, known: readonly string[]): string[] {
  const typed = given.toLowerCase()
  let best = Infinity
  let nearest: string[] = []
  for (const name of known) {
    const bound = suggestionBound(name)
    const distance = editDistance(typed, name.toLowerCase(), bound)
    if (distance > bound || distance > best) continue
    if (distance < best) nearest = []
    best = distance
    nearest.push(name)
  }
  return nearest
}

/**
 * What a message expects instead of `given`: the nearest of `known`
 * (`` `status` ``, or `` `lint` or `init` `` on a tie) when one is near
 * enough to be meant, else `otherwise` (the whole list); `quote` writes
 * each name as messages do.
 */
export function expectedInstead(given: string, known: readonly string[], quote: (name: string) => string, otherwise: string): string {
  const nearest = suggest(given, known)
  return nearest.length === 0 ? otherwise : nearest.map(quote).join(' or ')
}
