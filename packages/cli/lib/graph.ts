import {isTier, parseSliceHeading, readTier} from '@verification-tiers/contracts'
import type {Tier} from '@verification-tiers/contracts'
import {ProjectError} from './errors.js'

/** One slice of a project’s graph: its contracts, and the tier it states, if any. */
export interface GraphSlice {
  id: string
  name: string
  /** Contract ids in the graph’s order, written `C-NN`. */
  contracts: string[]
  /** The tier the graph states for the slice; contracts without a tier of their own take it. */
  tier: Tier | null
}

/** `C-01`, `c-01` and `C1` are the same contract: `C-01`, `C-01`, `C-1`. */
export function normalizeContractId(id: string): string {
  const match = /^C-?(\d+)$/i.exec(id.trim())
  return match ? `C-${match[1]}` : id.trim().toUpperCase()
}

/** Slices of a parsed `GRAPH.json`: `{"slices": {"S-01": {"name", "contracts", "verification"?}}}`. */
export function readGraphJson(graph: unknown, file: string): GraphSlice[] {
  const slices = (graph as {slices?: unknown} | null)?.slices
  if (typeof slices !== 'object' || slices === null || Array.isArray(slices)) {
    throw new ProjectError(file, 'Unexpected content, expected an object with `slices`')
  }
  return Object.entries(slices as Record<string, unknown>).map(([id, value]) => {
    const entry = value as {name?: unknown; contracts?: unknown; verification?: unknown}
    if (typeof entry !== 'object' || entry === null || !Array.isArray(entry.contracts) || !entry.contracts.every((item) => typeof item === 'string')) {
      throw new ProjectError(file, `Unexpected \`slices.${id}\`, expected \`{"name": "…", "contracts": ["C-01", …]}\``)
    }
    let tier: Tier | null = null
    if (entry.verification !== undefined) {
      if (typeof entry.verification !== 'string' || !isTier(readTier(entry.verification))) {
        throw new ProjectError(file, `Unexpected \`slices.${id}.verification\` ${JSON.stringify(entry.verification)}, expected \`auto\` or \`verify\``)
      }
      tier = readTier(entry.verification) as Tier
    }
    return {id, name: typeof entry.name === 'string' ? entry.name : id, contracts: (entry.contracts as string[]).map(normalizeContractId), tier}
  })
}

// `Contracts: C-01, C-02` or `Verification: auto`, plain or bold, maybe as a list item.
const fieldLine = /^\s*(?:[-*+]\s+)?(?:\*\*)?(contracts|verification)(?:\*\*)?\s*:(?:\*\*)?\s*(.*)$/i
const contractId = /\bC-?\d+\b/gi
const listedContract = /^\s*(?:[-*+]|\d+[.)])\s+(?:\*\*|`)?(C-?\d+)\b/i
const headingLine = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/
const fenceLine = /^ {0,3}(`{3,}|~{3,})/

/**
 * Slices of a `GRAPH.md`: one heading per slice (`## S-01: Name`), its
 * contracts on a `Contracts: C-01, C-02` line or in a list after
 * `Contracts:`, and optionally `Verification: auto` for the slice.
 */
export function readGraphMarkdown(text: string, file: string): GraphSlice[] {
  const slices: Array<GraphSlice & {depth: number; line: number}> = []
  let current: (GraphSlice & {depth: number; line: number}) | null = null
  let listing = false
  let fence: string | null = null
  for (const [index, line] of text.split(/\r\n?|\n/).entries()) {
    const fenceMatch = fenceLine.exec(line)
    if (fence !== null) {
      if (fenceMatch && fenceMatch[1]!.startsWith(fence)) fence = null
      continue
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!
      continue
    }
    const heading = headingLine.exec(line)
    if (heading) {
      listing = false
      const depth = heading[1]!.length
      const slice = parseSliceHeading(heading[2]!)
      if (slice) {
        current = {...slice, name: slice.name || slice.id, contracts: [], tier: null, depth, line: index + 1}
        slices.push(current)
      } else if (current && depth <= current.depth) {
        current = null
      }
      continue
    }
    if (!current) continue
    const field = fieldLine.exec(line)
    if (field) {
      const value = field[2]!.replace(/\*\*$/, '').trim()
      if (field[1]!.toLowerCase() === 'verification') {
        const tier = readTier(value)
        if (!isTier(tier)) throw new ProjectError(`${file}:${index + 1}`, `Unexpected slice tier \`${value}\` for ${current.id}, expected \`auto\` or \`verify\``)
        current.tier = tier
        listing = false
      } else {
        current.contracts.push(...(value.match(contractId) ?? []).map(normalizeContractId))
        listing = true
      }
      continue
    }
    const listed = listing ? listedContract.exec(line) : null
    if (listed) current.contracts.push(normalizeContractId(listed[1]!))
    else if (line.trim() !== '') listing = false
  }
  if (slices.length === 0) throw new ProjectError(file, 'no slices found, expected `## S-01: Name` headings, each with a `Contracts: C-01, C-02` line')
  for (const slice of slices) {
    if (slice.contracts.length === 0) {
      throw new ProjectError(`${file}:${slice.line}`, `slice ${slice.id} lists no contracts, expected a \`Contracts: C-01, C-02\` line or a list of contract ids after \`Contracts:\``)
    }
  }
  return slices.map(({id, name, contracts, tier}) => ({id, name, contracts: [...new Set(contracts)], tier}))
}
