import type {SliceHeading} from './types.js'

// `C-12: Name`, `C-12. Name`, `C-12 — Name`, `C-12 Name`, `C-12`, and without the hyphen only
// before a colon or period (`C12. Name`), so a heading like `C4 Model` is not a contract. The colon or
// period is followed by a space: `C-17.1 Part` is a section number, not contract C-17.
const idHeading = (letter: string) =>
  new RegExp(`^(${letter})(?:-(\\d+)(?:\\s*[:.](?=\\s|$)|\\s+(?:--|[-—–])|(?=\\s)|$)|(\\d+)\\s*[:.](?=\\s|$))\\s*(.*)$`, 'i')
const contractHeading = idHeading('C')
const namedContractHeading = /^Contract\s*:\s*(.+)$/i
const sliceHeading = idHeading('S')

/** `C-03: Name` (or `C3. Name`, `C-03 — Name`, `C-03 Name`) or `Contract: Name`; `null` for other headings. */
export function parseContractHeading(text: string): {id: string | null; name: string} | null {
  const trimmed = text.trim()
  const match = readIdHeading(contractHeading, trimmed)
  if (match) return match
  const named = namedContractHeading.exec(trimmed)
  if (named) return {id: null, name: (named[1] ?? '').trim()}
  return null
}

/** `S-01: Name` (or `S1. Name`, `S-01 — Name`, `S-01 Name`); `null` for other headings. */
export function parseSliceHeading(text: string): SliceHeading | null {
  return readIdHeading(sliceHeading, text.trim())
}

/** The id, written `X-NN` whatever the heading’s form, and the name. */
function readIdHeading(pattern: RegExp, text: string): {id: string; name: string} | null {
  const match = pattern.exec(text)
  if (!match) return null
  return {id: (match[1] ?? '').toUpperCase() + '-' + (match[2] ?? match[3] ?? ''), name: (match[4] ?? '').trim()}
}

/** A contract id as contracts are named: `C-01`, `c-01` and `C1` are `C-01`, `C-01`, `C-1` (digits as written). */
export function normalizeContractId(id: string): string {
  const match = /^C-?(\d+)$/i.exec(id.trim())
  return match ? `C-${match[1]}` : id.trim().toUpperCase()
}

/** What messages call a contract: `C-03 CampaignStatusBadge`. */
export function contractLabel(id: string | null, name: string): string {
  if (id && name) return id + ' ' + name
  return id ?? (name || '(unnamed)')
}
