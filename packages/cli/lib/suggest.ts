/**
 * “Did you mean”: the known names nearest a mistyped one, by the
 * Damerau–Levenshtein distance (optimal string alignment: insertions,
 * deletions, substitutions and swaps of two neighbours each count one),
 * within a bound that grows with the name's length, so a short name's
 * suggestions stay close and an unrelated word gets none.
 */

/** The edits between `a` and `b`, or `limit + 1` as soon as it is certain to be more than `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  // Three rows: the one before the previous is needed for a swap.
  let before: number[] = []
  let previous = Array.from({length: b.length + 1}, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    let rowLowest = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let value = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, (before[j - 2] as number) + 1)
      current.push(value)
      rowLowest = Math.min(rowLowest, value)
    }
    if (rowLowest > limit) return limit + 1
    before = previous
    previous = current
  }
  return previous[b.length] as number
}

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
