import type {Root} from 'mdast'
// micromark made linear in the number of lists (see `contracts/lib/edit-map.ts`): every rule, so every preset, loads
// this module before remark parses a file.
import '@verification-tiers/contracts/edit-map'
import {analyzeContracts} from '@verification-tiers/contracts'
export {inlineCode} from '@verification-tiers/contracts'
import type {ContractAnalysis} from '@verification-tiers/contracts'
import {readToolFile} from '@verification-tiers/spec-tools'
import type {ToolFileReading} from '@verification-tiers/spec-tools'
import path from 'node:path'
import type {Processor} from 'unified'
import {lintRule} from 'unified-lint-rule'
import type {Plugin} from 'unified-lint-rule'
import {VFileMessage} from 'vfile-message'
import type {Node, Position} from 'unist'
import type {VFile} from 'vfile'
import {namesOfGraph, noSlices, projectFolderOfPath, sliceView} from './slices.js'
import type {ProjectContext, ProjectSlices} from './slices.js'
import {ruleUrl} from './url.js'
import {ancestorsAt} from './ancestors.js'

declare module 'vfile' {
  interface DataMap {
    /** The file’s contracts as the rules read them, with the tree they were read from (held weakly: a file kept after its run does not keep its tree). */
    contracts: DocumentReading & {tree: WeakRef<Root>}
  }
}

/** What a check gets besides the document’s contracts, the file and its options. */
export interface CheckContext {
  /** What the project’s slice graph states of each contract. */
  slices: ProjectSlices
  /** The reading of a file of a spec-kit, OpenSpec, Kiro, GSD or BMAD folder (`null` for any other file). */
  tool: ToolFileReading | null
  /** Add a message of this rule on this file, at a place in its tree. */
  report: Report
}

/** Checks one document’s contracts and reports on it. */
export type ContractCheck<Options> = (analysis: ContractAnalysis, file: VFile, options: Options, context: CheckContext) => void

/**
 * Add a message as remark-lint’s rules do: `place` always set (editors read
 * only `place`), `ancestors` the path to the node it points at, and a
 * `cause` for a place elsewhere.
 */
export type Report = (reason: string, place: Position, fields?: ReportFields) => void

/** What the rules read of one document. */
export interface DocumentReading {
  analysis: ContractAnalysis
  slices: ProjectSlices
  /** The file read as its tool’s file (its path is `specs/NNN-name/spec.md`, an OpenSpec `spec.md`, a Kiro `requirements.md`, a BMAD story, or any other file of a tool’s folder), else `null`. */
  tool: ToolFileReading | null
  /** Which lists of children all have offsets, as `ancestors` are looked for: known once per list for every rule. */
  placed: WeakMap<Node[], boolean>
}

/**
 * The contracts of a document as the gate reads them, read once per tree
 * and kept in `file.data.contracts` for every rule: with the names its
 * project’s slice graph lists (a heading the graph names is a contract), and
 * the slices the graph puts each in. The graph comes from `project` (the
 * processor’s `verificationTiers` data); without it, or without a graph for
 * the file’s project, the document alone.
 */
export function readDocument(tree: Root, file: VFile, project?: ProjectContext): DocumentReading {
  const known = file.data.contracts
  if (known?.tree.deref() === tree) return known
  const document = {...readContracts(tree, file, project), placed: new WeakMap<Node[], boolean>(), tree: new WeakRef(tree)}
  file.data.contracts = document
  return document
}

function readContracts(tree: Root, file: VFile, project: ProjectContext | undefined): Omit<DocumentReading, 'placed'> {
  // A tool’s file is read as the gate reads it: its units are the contracts.
  const absolute = file.path ? path.resolve(file.cwd, file.path) : null
  const tool = absolute ? readToolFile(absolute, String(file.value)) : null
  if (tool) return {analysis: tool.analysis, slices: noSlices, tool}
  const dir = absolute && project ? projectFolderOfPath(absolute) : null
  const graph = dir === null ? null : project!.graphOf(dir)
  if (!graph) return {analysis: analyzeContracts(tree, file), slices: noSlices, tool: null}
  const names = namesOfGraph(graph)
  const analysis = analyzeContracts(tree, file, {names})
  return {analysis, slices: sliceView(graph, names, analysis.contracts), tool: null}
}

/**
 * unified plugin reading a file’s contracts into `file.data.contracts`
 * (`readDocument`), with the slice graph the processor gives: the rules, and
 * any plugin after it, find them there.
 */
export function remarkContracts(this: {data(key: 'verificationTiers'): ProjectContext | undefined}) {
  return (tree: Root, file: VFile): undefined => {
    readDocument(tree, file, this.data('verificationTiers'))
  }
}

/**
 * A remark-lint rule over the contract model: origin `remark-lint:<ruleId>`,
 * docs `url`, and the document’s contracts and their slices read once per
 * tree and shared with every other rule. The slice graph is what the
 * processor’s `verificationTiers` data gives; the rule reads no file.
 */
export function contractRule<Options = undefined>(ruleId: string, check: ContractCheck<Options>): Plugin<Root, Options> {
  const meta = {origin: `remark-lint:${ruleId}`, url: ruleUrl(ruleId)}
  function plugin(this: Processor, config?: Parameters<Plugin<Root, Options>>[0]) {
    // The data of the processor the rule is used on, read as each file is checked, says what the file's project holds.
    const rule = lintRule<Root, Options>(meta, (tree, file, options) => {
      const reading = readDocument(tree, file, this.data('verificationTiers'))
      check(reading.analysis, file, options, {slices: reading.slices, tool: reading.tool, report: reporter(file, tree, ruleId, reading.placed)})
    })
    return rule(config)
  }
  Object.defineProperty(plugin, 'name', {value: meta.origin})
  return plugin as Plugin<Root, Options>
}

/** Extra fields of a message: what was found, what fixes it (editors offer `expected` as quick fixes), and what it is about elsewhere. */
export interface ReportFields {
  actual?: string
  expected?: string[]
  /** A place the message is about besides its own (the first of two fields): `reason` says what is there. */
  cause?: {reason: string; place: Position}
}

/** `Report` for one rule on one file and its tree. */
function reporter(file: VFile, tree: Root, ruleId: string, placed: WeakMap<Node[], boolean>): Report {
  return (reason, place, fields = {}) => {
    const ancestors = ancestorsAt(tree, place, placed)
    const cause = fields.cause && new VFileMessage(fields.cause.reason, {place: fields.cause.place, source: 'remark-lint', ruleId})
    const message = file.message(reason, {place, ...(ancestors ? {ancestors} : {}), ...(cause ? {cause} : {})})
    if (fields.actual !== undefined) message.actual = fields.actual
    if (fields.expected !== undefined) message.expected = fields.expected
  }
}
