import type {Root} from 'mdast'
// micromark made linear in the number of lists (see `contracts/lib/edit-map.ts`): every rule, so every preset, loads
// this module before remark parses a file.
import '@verification-tiers/contracts/edit-map'
import {analyzeContracts} from '@verification-tiers/contracts'
export {inlineCode} from '@verification-tiers/contracts'
import type {ContractAnalysis} from '@verification-tiers/contracts'
import {readToolFile} from '@verification-tiers/contracts/tools'
import type {ToolFileReading} from '@verification-tiers/contracts/tools'
import path from 'node:path'
import {lintRule} from 'unified-lint-rule'
import {VFileMessage} from 'vfile-message'
import type {Position} from 'unist'
import type {VFile} from 'vfile'
import {graphOf, namesOfGraph, noSlices, projectFolderOfPath, sliceView} from './slices.js'
import {ruleUrl} from './url.js'
import {ancestorsAt} from './ancestors.js'
import type {ProjectSlices} from './slices.js'


/**
 * Checks one document’s contracts and reports on `file`; `slices` says what
 * the project’s slice graph states of each contract; `tool` is the reading
 * of a spec-kit, OpenSpec or Kiro file (`null` for any other file).
 */
export type ContractCheck<Options> = (analysis: ContractAnalysis, file: VFile, options: Options, slices: ProjectSlices, tool: ToolFileReading | null) => void

/** What the rules read of one document. */
export interface DocumentReading {
  analysis: ContractAnalysis
  slices: ProjectSlices
  /** The file read as its tool’s file (its path is `specs/NNN-name/spec.md`, an OpenSpec `spec.md`, a Kiro `requirements.md`), else `null`. */
  tool: ToolFileReading | null
}

/** A document’s contracts and slices, read once per tree and shared by every rule. */
const documents = new WeakMap<Root, DocumentReading>()

/**
 * The contracts of a document as the gate reads them: with the names its
 * project’s slice graph lists (a heading the graph names is a contract), and
 * the slices the graph puts each in. Without a graph (or one that cannot be
 * read, which the gate reports), the document alone.
 */
export function readDocument(tree: Root, file: VFile): DocumentReading {
  const known = documents.get(tree)
  if (known) return known
  // A tool’s file is read as the gate reads it: its units are the contracts.
  const absolute = file.path ? path.resolve(file.cwd, file.path) : null
  const tool = absolute ? readToolFile(absolute, String(file.value)) : null
  if (tool) {
    const document = {analysis: tool.analysis, slices: noSlices, tool}
    documents.set(tree, document)
    return document
  }
  const dir = absolute ? projectFolderOfPath(absolute) : null
  const graph = dir === null ? null : graphOf(dir)
  const analysis = graph ? analyzeContracts(tree, file, {names: namesOfGraph(graph)}) : analyzeContracts(tree, file)
  const document = {analysis, slices: graph ? sliceView(graph, analysis.contracts) : noSlices, tool: null}
  documents.set(tree, document)
  return document
}

/**
 * A remark-lint rule over the contract model: origin `remark-lint:<ruleId>`,
 * docs `url`, and the document’s contracts and their slices read once per
 * tree and shared with every other rule.
 */
export function contractRule<Options = undefined>(ruleId: string, check: ContractCheck<Options>) {
  return lintRule<Root, Options>({origin: `remark-lint:${ruleId}`, url: ruleUrl(ruleId)}, (tree, file, options) => {
    const {analysis, slices, tool} = readDocument(tree, file)
    // What `report` needs besides the file: the tree (for `ancestors`) and the rule (for a `cause`’s origin).
    // A check runs to its end before another starts (checks are synchronous), so one slot holds it.
    const outer = running
    running = {file, tree, ruleId}
    try {
      check(analysis, file, options, slices, tool)
    } finally {
      running = outer
    }
  })
}

/** The file, tree and rule of the check running now, if any. */
let running: {file: VFile; tree: Root; ruleId: string} | null = null

/** Extra fields of a message: what was found, what fixes it (editors offer `expected` as quick fixes), and what it is about elsewhere. */
export interface ReportFields {
  actual?: string
  expected?: string[]
  /** A place the message is about besides its own (the first of two fields): `reason` says what is there. */
  cause?: {reason: string; place: Position}
}

/**
 * Add a message as remark-lint’s rules do: `place` always set (editors read
 * only `place`), `ancestors` the path to the node it points at, and a
 * `cause` for a place elsewhere.
 */
export function report(file: VFile, reason: string, place: Position, fields: ReportFields = {}): void {
  const rule = running?.file === file ? running : undefined
  const ancestors = rule ? ancestorsAt(rule.tree, place) : undefined
  const cause = fields.cause && withoutStackTrace(() => new VFileMessage(fields.cause!.reason, {place: fields.cause!.place, source: 'remark-lint', ruleId: rule?.ruleId}))
  const message = withoutStackTrace(() => file.message(reason, {place, ...(ancestors ? {ancestors} : {}), ...(cause ? {cause} : {})}))
  if (fields.actual !== undefined) message.actual = fields.actual
  if (fields.expected !== undefined) message.expected = fields.expected
}

/**
 * Make a message without the stack trace `Error` captures: a message made
 * from a reason has `stack` `''` (vfile-message sets it), so the trace,
 * walked on every message, is never read.
 */
function withoutStackTrace<Made>(make: () => Made): Made {
  const limit = Error.stackTraceLimit
  try {
    Error.stackTraceLimit = 0
  } catch {
    // A frozen `Error` keeps its limit: the message is made all the same.
    return make()
  }
  try {
    return make()
  } finally {
    Error.stackTraceLimit = limit
  }
}
