import {createRequire} from 'node:module'
import type * as JsoncParser from 'jsonc-parser'
import {location} from 'vfile-location'
import {ProjectError} from './errors.js'
import {checkSliceId, checkUniqueSliceIds, placeOf, readTierText} from './graph.js'
import type {FolderGraph, GraphRef, GraphSlice, TierText} from './graph.js'

type JsonNode = JsoncParser.Node

const require = createRequire(import.meta.url)
const byteOrderMark = '\uFEFF'

/** Keys of a slice entry, by what they hold, in the spellings graphs use. */
const keys = {
  id: ['id', 'slice', 'slice_id', 'sliceId'],
  name: ['name', 'title'],
  contracts: ['contracts', 'contract_ids', 'contractIds'],
  tier: ['verification', 'tier', 'verification_tier', 'verificationTier'],
  humanCheck: ['human_check', 'humanCheck', 'human-check'],
  verificationText: ['verification_text', 'verificationText', 'verifies']
} as const

/** The end of a shape error: the file may be right, and `tiers` the one to learn. */
const unreadShape = 'tiers does not read this shape of GRAPH.json, which may well be valid: report the shape to tiers'

/**
 * Slices of a `GRAPH.json`’s text (JSON; a syntax error is a `ProjectError` at its line): `slices` as an object
 * keyed by slice id (`{"S-01": {"name", "contracts", "verification"?}}`) or
 * as an array of `{"id", "name"?, "contracts"?, "verification"? | "tier"?}`;
 * contracts listed by id or by name. A shape it does not read is one
 * `ProjectError` naming the file and the line of what it could not read.
 */
export function readGraphJson(text: string, file: string): GraphSlice[] {
  const body = text.startsWith(byteOrderMark) ? text.slice(1) : text
  const {parseTree, getNodeValue, printParseErrorCode} = require('jsonc-parser') as typeof JsoncParser
  const errors: JsoncParser.ParseError[] = []
  let root: JsonNode | undefined
  try {
    root = parseTree(body, errors, {disallowComments: true, allowTrailingComma: false})
  } catch (error) {
    // jsonc-parser builds its tree by recursion: nesting thousands deep exhausts the stack.
    if (error instanceof RangeError)
      throw new ProjectError(placeOf(file, 1), 'Unexpected nesting too deep to read, expected JSON nested at most a few thousand levels')
    throw error
  }
  const lines = location(body)
  const lineOf = (offset: number) => lines.toPoint(offset)?.line ?? 1
  const syntax = errors[0]
  if (syntax) throw new ProjectError(placeOf(file, lineOf(syntax.offset)), `Unexpected JSON syntax (${printParseErrorCode(syntax.error)}), expected JSON`)
  const lineAt = (node: JsonNode) => lineOf(node.offset)
  const refuse = (node: JsonNode | undefined, found: string, expected: string): never => {
    throw new ProjectError(placeOf(file, node ? lineAt(node) : 1), `Unexpected ${found}, expected ${expected}: ${unreadShape}`)
  }
  if (root?.type !== 'object') return refuse(root, `a ${describe(root)} at the top`, 'an object with `slices`')
  const slicesNode = property(root, ['slices'])
  if (!slicesNode) return refuse(root, 'an object without `slices`', 'an object with `slices`')
  const entries: Array<{id: string | null; node: JsonNode; where: string}> = []
  if (slicesNode.type === 'object') {
    for (const member of slicesNode.children ?? []) {
      const [key, value] = member.children ?? []
      if (!key || !value) continue
      entries.push({id: getNodeValue(key) as string, node: value, where: `slices.${getNodeValue(key) as string}`})
    }
  } else if (slicesNode.type === 'array') {
    for (const [index, value] of (slicesNode.children ?? []).entries()) entries.push({id: null, node: value, where: `slices[${index}]`})
  } else {
    return refuse(slicesNode, `\`slices\` as ${describe(slicesNode)}`, 'an object of slices by id or an array of `{"id": …, "contracts": […]}`')
  }
  const slices = entries.map(({id: key, node, where}): GraphSlice => {
    if (node.type !== 'object') return refuse(node, `\`${where}\` as ${describe(node)}`, 'an object with the slice’s `contracts`')
    let id = key
    if (id === null) {
      const idNode = property(node, keys.id)
      if (!idNode || (idNode.type !== 'string' && idNode.type !== 'number'))
        return refuse(idNode ?? node, `\`${where}\` without an \`id\``, 'a slice id such as `"id": "S-01"`')
      id = String(getNodeValue(idNode))
    }
    checkSliceId(id, placeOf(file, lineAt(node)))
    const nameNode = property(node, keys.name)
    const contractsNode = property(node, keys.contracts)
    const contracts: GraphRef[] = []
    // No list at all is not an empty list: the slice's contracts are somewhere tiers does not look, and would pass unchecked.
    if (!contractsNode)
      return refuse(node, `\`${where}\` without \`contracts\``, 'the slice’s contracts as `"contracts": ["C-01"]`, or `"contracts": []` for a slice with none')
    if (contractsNode.type !== 'array') return refuse(contractsNode, `\`${where}.contracts\` as ${describe(contractsNode)}`, 'a list of contract ids or names')
    for (const item of contractsNode.children ?? []) {
      const written =
        item.type === 'string' ? (getNodeValue(item) as string) : item.type === 'object' ? refText(property(item, [...keys.id, 'name']), getNodeValue) : null
      if (written === null) return refuse(item, `${describe(item)} in \`${where}.contracts\``, 'a contract id or name as a string')
      contracts.push({text: written, line: lineAt(item)})
    }
    // A tier that is no tier is the file’s mistake, not a shape tiers does not know.
    const stated = readTierNode(property(node, keys.tier), getNodeValue, (bad, value) => {
      throw new ProjectError(
        placeOf(file, lineAt(bad)),
        `Unexpected \`${where}.${keyOf(node, bad)}\` ${JSON.stringify(value)}, expected \`auto\` or \`verify\`, then any words`
      )
    })
    const humanCheck = stringAt(property(node, keys.humanCheck), getNodeValue)
    return {
      id,
      name: stringAt(nameNode, getNodeValue) ?? id,
      line: lineAt(node),
      contracts,
      contractsText: [],
      tier: stated.tier,
      humanCheck: stated.retired ? null : (humanCheck ?? stated.humanCheck),
      retired: stated.retired,
      verification: stringAt(property(node, keys.verificationText), getNodeValue)
    }
  })
  checkUniqueSliceIds(slices, file)
  return slices
}

/** A `GRAPH.json` as a folder’s graph. */
export function jsonGraph(text: string, file: string): FolderGraph {
  return {from: 'GRAPH.json', file, slices: readGraphJson(text, file), problems: []}
}

/** The tier a slice entry states: none, or its text read as a GRAPH.md tier line is. */
function readTierNode(node: JsonNode | undefined, value: typeof JsoncParser.getNodeValue, refuse: (node: JsonNode, value: unknown) => never): TierText {
  if (!node) return {tier: null, humanCheck: null, retired: null}
  const text = node.type === 'string' ? (value(node) as string) : null
  const read = text === null ? null : readTierText(text)
  return read ?? refuse(node, value(node))
}

/** The value of the first of `names` an object node has. */
function property(node: JsonNode, names: readonly string[]): JsonNode | undefined {
  for (const name of names) {
    const found = node.children?.find((member) => member.children?.[0]?.value === name)
    if (found) return found.children?.[1]
  }
  return undefined
}

/** The key under which `value` sits in `node`. */
function keyOf(node: JsonNode, value: JsonNode): string {
  return String(node.children?.find((member) => member.children?.[1] === value)?.children?.[0]?.value ?? '')
}

function stringAt(node: JsonNode | undefined, value: typeof JsoncParser.getNodeValue): string | null {
  return node?.type === 'string' ? (value(node) as string).trim() || null : null
}

function refText(node: JsonNode | undefined, value: typeof JsoncParser.getNodeValue): string | null {
  return node?.type === 'string' || node?.type === 'number' ? String(value(node)) : null
}

/** What a JSON value is, for messages: `a string`, `an array`. */
function describe(node: JsonNode | undefined): string {
  if (!node) return 'nothing'
  return node.type === 'array' || node.type === 'object' ? `an ${node.type}` : `a ${node.type}`
}
