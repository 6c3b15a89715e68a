import type {SliceHeading} from './types.js'

const contractHeading = /^(C-\d+)\s*(?::\s*(.*))?$/i
const namedContractHeading = /^Contract\s*:\s*(.+)$/i
const sliceHeading = /^(S-\d+)\s*(?::\s*(.*))?$/i

/** `C-03: Name` or `Contract: Name`; `null` for other headings. */
export function parseContractHeading(text: string): {id: string | null; name: string} | null {
  const trimmed = text.trim()
  const match = contractHeading.exec(trimmed)
  if (match) return {id: (match[1] ?? '').toUpperCase(), name: (match[2] ?? '').trim()}
  const named = namedContractHeading.exec(trimmed)
  if (named) return {id: null, name: (named[1] ?? '').trim()}
  return null
}

/** `S-01: Name`; `null` for other headings. */
export function parseSliceHeading(text: string): SliceHeading | null {
  const match = sliceHeading.exec(text.trim())
  return match ? {id: (match[1] ?? '').toUpperCase(), name: (match[2] ?? '').trim()} : null
}

/** What messages call a contract: `C-03 CampaignStatusBadge`. */
export function contractLabel(id: string | null, name: string): string {
  if (id && name) return id + ' ' + name
  return id ?? (name || '(unnamed)')
}
