import type {SliceState} from './state.js'

/**
 * The feedback acknowledged but deferred when verification was skipped, which
 * every later decision keeps: a later approval does not make the mismatch
 * go away, it only means the user took the slice as it is.
 *
 * Each skip deferred the open rejections of its time: the first
 * `rejectionCount` rejections since the slice last restarted. Walking the
 * escalations from the latest, each re-scope marks where the rejections
 * before it end (it recorded how many it set aside), so every skip finds
 * its rejections in the log. Feedback a decision lists that the log does not
 * explain (a state edited by hand) is kept too.
 */
export function keptMismatch(state: SliceState): string[] {
  const deferred = new Set<number>()
  // The rejections since the latest restart are the last `rejectionCount` of the log.
  let end = state.rejections.length
  let count = clamp(state.rejectionCount, end)
  for (const entry of [...state.escalations].reverse()) {
    const start = end - count
    if (entry.decision === 'skip') {
      for (let index = start; index < start + clamp(entry.rejectionCount, count); index++) deferred.add(index)
    } else if (entry.decision === 'rescope') {
      end = start
      count = clamp(entry.rejectionCount, end)
    }
  }
  const logged = [...deferred].sort((a, b) => a - b).map((index) => state.rejections[index].feedback)
  const unexplained = (state.decision?.mismatch ?? []).filter((feedback) => !logged.includes(feedback))
  return [...logged, ...unexplained]
}

/** `value` as a count between 0 and `most`. */
function clamp(value: number, most: number): number {
  return Math.max(0, Math.min(Number.isSafeInteger(value) ? value : 0, most))
}
