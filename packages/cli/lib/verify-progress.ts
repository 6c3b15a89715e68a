/**
 * `tiers verify`'s progress at a terminal: a line as each check ends, then
 * the time the whole run took, on stderr, so stdout stays the report.
 */
import type {CheckProgress} from '@verification-tiers/evidence'
import {truncate} from './text-width.js'

/** `pass     S-23 C-65.1  The form saves the draft (1.2 s)`, cut to `width` columns. */
export function progressLine({slice, result}: CheckProgress, width = 80): string {
  const seconds = result.duration_ms === null ? '' : ` (${formatSeconds(result.duration_ms)})`
  const where = slice === null ? result.criterion_id : `${slice} ${result.criterion_id}`
  const head = `${result.status.padEnd(8)} ${where}  `
  return `${head}${truncate(result.text, Math.max(10, width - head.length - seconds.length))}${seconds}`
}

/** `5 checks in 8.1 s`. */
export function elapsedLine(checks: number, elapsedMs: number): string {
  return `${checks} check${checks === 1 ? '' : 's'} in ${formatSeconds(elapsedMs)}`
}

function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}
