import {judgeMerge} from '@verification-tiers/evidence/gate'
import {exitCodes} from '../errors.js'
import type {Command} from './shared.js'

/**
 * `tiers ci`: hold the merge while a verify slice the branch changed has
 * no approval for its contracts as they are, or the project cannot be read
 * whole, or a slice's state lost committed history; exit 1 listing each,
 * else 0. Either way, who approved each slice that passes, and how, and the
 * state files no slice has.
 */
export const ci: Command = async (input) => {
  const judged = await judgeMerge({dir: input.dir, cwd: process.cwd(), base: input.base ?? null})
  const data = {
    passed: judged.holds.length === 0,
    holds: judged.holds,
    approved: judged.approved,
    approvals: judged.approvals,
    unchanged: judged.unchanged,
    orphans: judged.orphans
  }
  const unchanged = judged.unchanged.length > 0 ? `; ${judged.unchanged.length} unchanged since ${input.base}` : ''
  const approvals = judged.approvals.map((approval) => `  ${approval.line}`)
  const orphans = judged.orphans.length > 0 ? ['', ...judged.orphans] : []
  if (judged.holds.length === 0) {
    const text = [
      `MERGE READY — every verify slice is approved for its contracts as they are (${judged.approved.length} approved${unchanged})`,
      ...approvals,
      ...orphans
    ]
    return {text: text.join('\n'), data, warnings: []}
  }
  const text = [
    `MERGE HELD — ${judged.holds.length} ${judged.holds.length === 1 ? 'thing waits' : 'things wait'} for a person or a fix:`,
    ...judged.holds.map((hold) => `  ${hold.line}`),
    ...(approvals.length > 0 ? ['', 'Approved:', ...approvals] : []),
    ...orphans,
    '',
    'A person approves a verify slice at its checkpoint, in their own terminal (tiers review <slice>), and commits its state (<project>/tiers/<slice>.json).',
    // A slice lowered since the base is held by the base: its checkpoint, shown against it, lists the changes to confirm.
    ...(input.base && judged.holds.some((hold) => hold.since === 'base')
      ? [`A slice changed since ${input.base} is shown with its changes by tiers review <slice> --base ${input.base}.`]
      : []),
    ...(judged.holds.some((hold) => hold.lastAt !== undefined)
      ? [
          'A slice the branch archives, moves or deletes is approved before it goes: tiers review <slice> while its files are in place, its state committed with the branch.'
        ]
      : [])
  ].join('\n')
  return {text, data, warnings: [], exitCode: exitCodes.user}
}
