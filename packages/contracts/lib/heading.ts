import type {SliceHeading} from './types.js'

// Every kind of dash people (and their editors) put in an id: `C‑02` with a non-breaking hyphen is `C-02`.
const dash = '\\-\\u2010-\\u2015\\u2212\\uFE58\\uFE63\\uFF0D'
const dashes = new RegExp(`[${dash}]`, 'g')

// `C-12: Name`, `C-12. Name`, `C-12 — Name`, `C-12 Name`, `C-12`, and without the hyphen only
// before a colon or period (`C12. Name`), so a heading like `C4 Model` is not a contract. The colon or
// period is followed by a space: `C-17.1 Part` is a section number, not contract C-17.
const letterHeading = (letter: string) =>
  new RegExp(`^(${letter})(?:[${dash}](\\d+)(?:\\s*[:.](?=\\s|$)|\\s+(?:--|[${dash}])|(?=\\s)|$)|(\\d+)\\s*[:.](?=\\s|$))\\s*(.*)$`, 'i')
const cHeading = letterHeading('C')
const sliceHeading = letterHeading('S')
// Any id of letters and digits (`AUTH-3`, `GROUP-7`, `API-V2-1`), then `:`, `.` or a dash, then the name.
// An id ends in its number: `s1f` and `s0a` name slices, and `OAuth2a` no contract.
const anyIdHeading = new RegExp(`^([A-Za-z][A-Za-z\\d]*(?:[${dash}][A-Za-z\\d]+)*)(?:\\s*[:.](?=\\s|$)|\\s+(?:--|[${dash}])(?=\\s|$))\\s*(.*)$`)
const namedContractHeading = /^Contract\s*:\s*(.+)$/i
// An id word alone: letters and digits, dashes between.
const contractIdWord = new RegExp(`^[A-Za-z][A-Za-z\\d]*(?:[${dash}][A-Za-z\\d]+)*$`)

/**
 * `ID: Name`, `ID. Name` or `ID — Name` with an id of letters and digits (at
 * least one of each: `C-03`, `C3`, `AUTH-3`), also `C-03 Name` and a bare
 * `C-03`, or `Contract: Name` (no id: the name is its key); `null` for other
 * headings, and for slice headings (`S-01: Name`).
 */
export function parseContractHeading(text: string): {id: string | null; name: string} | null {
  const trimmed = text.trim()
  if (parseSliceHeading(trimmed)) return null
  const c = readLetterHeading(cHeading, trimmed)
  if (c) return c
  const any = anyIdHeading.exec(trimmed)
  if (any && isContractId(any[1] ?? '')) return {id: normalizeContractId(any[1] ?? ''), name: (any[2] ?? '').trim()}
  const named = namedContractHeading.exec(trimmed)
  if (named) return {id: null, name: (named[1] ?? '').trim()}
  return null
}

/**
 * A heading read every way the reader reads headings: as a contract's, as a
 * slice's, and whether it starts with an id of any kind (`C-12: Name`,
 * `S-01: Name`, `s1f. Name`, `M0. Name`): a heading above such headings groups them.
 */
export function readHeadingText(text: string): {shape: {id: string | null; name: string} | null; slice: SliceHeading | null; idLike: boolean} {
  const shape = parseContractHeading(text)
  const slice = parseSliceHeading(text)
  // An id holding a digit, then `:`, `.` or a dash.
  const any = anyIdHeading.exec(text.trim())
  return {shape, slice, idLike: shape !== null || slice !== null || (any !== null && /\d/.test(any[1] ?? ''))}
}

/** `S-01: Name` (or `S1. Name`, `S-01 — Name`, `S-01 Name`); `null` for other headings. */
export function parseSliceHeading(text: string): SliceHeading | null {
  return readLetterHeading(sliceHeading, text.trim())
}

/** The id, written `X-NN` whatever the heading’s form, and the name. */
function readLetterHeading(pattern: RegExp, text: string): {id: string; name: string} | null {
  const match = pattern.exec(text)
  if (!match) return null
  return {id: (match[1] ?? '').toUpperCase() + '-' + (match[2] ?? match[3] ?? ''), name: (match[4] ?? '').trim()}
}

/**
 * Whether a word is a contract id: letters and digits (dashes between),
 * starting with a letter and ending with a digit (`C-12`, `C12`, `AUTH-3`).
 */
export function isContractId(word: string): boolean {
  return word.length <= 40 && contractIdWord.test(word) && /\d$/.test(word)
}

/**
 * A contract id as contracts are named: dashes of any kind are hyphens, letters
 * upper case, and letters then digits get a hyphen between (`c-01`, `C‑01`
 * and `C1` are `C-01`, `C-01`, `C-1`; `auth3` is `AUTH-3`; digits as written).
 */
export function normalizeContractId(id: string): string {
  const folded = id.trim().replace(dashes, '-')
  const match = /^([A-Za-z]+)-?(\d+)$/.exec(folded)
  return match ? `${match[1].toUpperCase()}-${match[2]}` : folded.toUpperCase()
}

/**
 * What contracts are matched by, across files: an id as
 * `normalizeContractId` writes it, without leading zeros (`C5`, `c-05`,
 * `C‑005` are all `C-5`; `auth-03` is `AUTH-3`); any other text (a name) as
 * `foldContractName` folds it.
 */
export function contractKey(text: string): string {
  const id = /^([A-Z]+)-0*(\d+)$/.exec(normalizeContractId(text))
  return id ? `${id[1]}-${id[2]}` : foldContractName(text)
}

/**
 * A name or heading text as a graph may list it: case, surrounding and
 * repeated space ignored, dashes of any kind folded to hyphens.
 */
export function foldContractName(name: string): string {
  return name.replace(dashes, '-').replace(/\s+/g, ' ').trim().toLowerCase()
}

/** What messages call a contract: `C-03 CampaignStatusBadge`. */
export function contractLabel(id: string | null, name: string): string {
  if (id && name) return id + ' ' + name
  return id ?? (name || '(unnamed)')
}
