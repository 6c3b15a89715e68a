/**
 * Edits between two strings: letters inserted, deleted, replaced, or two
 * neighbours swapped (optimal string alignment), counted by code point. With
 * `limit`, it stops as soon as the distance is certain to be more than it,
 * and gives `limit + 1`.
 */
export function editDistance(from: string, to: string, limit = Infinity): number {
  const a = [...from]
  const b = [...to]
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  // Three rows: the one two back is needed for swaps.
  let before: number[] = []
  let previous = Array.from({length: b.length + 1}, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    let rowLowest = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2] + 1)
      current.push(best)
      rowLowest = Math.min(rowLowest, best)
    }
    if (rowLowest > limit) return limit + 1
    before = previous
    previous = current
  }
  return previous[b.length]
}
