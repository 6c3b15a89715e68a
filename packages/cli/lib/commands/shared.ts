import path from 'node:path'
import {findProjectFolder, findSlice, gateContext, heldGateContext, loadProject, UserError} from '@verification-tiers/project'
import type {HeldContext, PlacedWeakening, Project} from '@verification-tiers/project'
import {approvedSince, deprecationWarning, readSliceState} from '@verification-tiers/runtime'
import type {HistoryCheck} from '@verification-tiers/runtime'
import type {ReadInput} from '../stdin.js'
import {invokedAs} from '../invoked-as.js'

/** What a command gives: text for people, data for `--json`. */
export interface CommandResult {
  text: string
  data: Record<string, unknown>
  warnings: string[]
  /** When the command ran but its answer is “no” (a failed check, a closed gate). */
  exitCode?: number
  /** Print `data` as JSON whatever the format (the stop-hook protocol). */
  raw?: boolean
}

/** Arguments every command gets. */
export interface CommandInput {
  /** `--dir`, when given. */
  dir: string | null
  positionals: string[]
  detail: string | null
  timeout: number | null
  /** `--env-allow`: the only variables `verify`’s commands get besides a minimal base; `null` or absent: all. */
  envAllow?: string[] | null
  /** `--slice`, for `contracts`. */
  slice: string | null
  all: boolean
  /** `--undo`, for `respond`: withdraw the slice’s latest answer. */
  undo?: boolean
  /** `--base`, for `ci`, `checkpoint`, `review` and `respond`: the git revision the branch started from. */
  base?: string | null
  /** `--agent`, for `stop-hook`: the coding agent whose hook runs. */
  agent?: string | null
  format: 'text' | 'json' | 'yaml'
  /** Standard output is a terminal this many columns wide (`null`: piped, or a file): text may then be laid out for a person. */
  terminal?: {columns: number} | null
  /** Where a long command says how it is going as it runs (stderr at a terminal); absent: it says nothing until done. */
  progress?: ((line: string) => void) | null
  /** Standard input, read on demand up to a limit in bytes (more is an `InputTooLargeError`). */
  stdin: ReadInput
  /** Standard input is a terminal, as a person typing has (absent: it is not): approvals and escalation choices need one. */
  stdinTerminal?: boolean
  /** Show `question` to the person and read the line they type (`null`: the input ended first); absent: no one to ask. */
  ask?: (question: string) => Promise<string | null>
}

export type Command = (input: CommandInput) => Promise<CommandResult>

/** The project folder named when none is found: `.greenlight`, so the error says what was looked for. */
export const defaultDir = '.greenlight'

/**
 * The project folder: `--dir`, else the nearest folder of any tool tiers
 * reads (`.greenlight`, `specs`, `openspec`, `.kiro`) from the working
 * directory upward, as git finds `.git`.
 */
export async function dirOf(input: CommandInput): Promise<string> {
  if (input.dir !== null) return input.dir
  const found = await findProjectFolder(process.cwd())
  // As messages show it: relative to where the command runs, as `--dir` would be.
  return found === null ? defaultDir : path.relative(process.cwd(), found) || '.'
}

export const heading = (title: string, slice: {id: string; name: string}) => `${title} — Slice ${slice.id}: ${slice.name}`

/** Why an auto slice is auto, as its checkpoint and its run say it: `every contract is auto`, or its retired human check. */
export const whyAuto = (slice: {retired: string | null}) =>
  slice.retired === null ? 'every contract is auto' : `its human check is retired (${slice.retired})`

/** A project, with one slice’s gate context, and what its reading noticed. */
export type SliceContext = Awaited<ReturnType<typeof loadSliceContext>>

/**
 * Load the project and the slice the first argument names, with the gate
 * context of the slice; `usage` is the message when fewer than `count`
 * arguments are given.
 */
export async function loadSliceContext(input: CommandInput, usage: string, count: number) {
  const [id] = input.positionals
  if (input.positionals.length < count || !id) throw new UserError(`Unexpected arguments, expected \`${usage}\``)
  const project = await loadProject(await dirOf(input))
  const context = gateContext(project, findSlice(project, id))
  return {project, context, warnings: warningsOf(project)}
}

/** A slice context held at the bar a person approved, with what lowered that bar since (each placed), and since what. */
export type HeldSliceContext = SliceContext & {weakenings: PlacedWeakening[]; since: string}

/**
 * The slice context as the gate holds it (`heldGateContext`): from the
 * slice’s state, a slice whose bar is lower than a person approved stays
 * `verify`, with each change; with `base` (a git revision), one lower than
 * it was there too, unless a person approved it as it is.
 */
export async function holdSliceContext(
  loaded: SliceContext,
  base: string | null = null,
  {check = 'all'}: {check?: HistoryCheck} = {}
): Promise<HeldSliceContext> {
  const {project, context} = loaded
  const slice = findSlice(project, context.slice.id)
  const state = await readSliceState(project.dir, slice.id, {check})
  let held: HeldContext & {since?: 'approval' | 'base' | null}
  if (base === null) held = heldGateContext(project, slice, state)
  else {
    const {heldAtBase, slicesAtBase} = await import('@verification-tiers/evidence/gate')
    held = heldAtBase(project, slice, state, (await slicesAtBase(project, base)).get(slice.id))
  }
  return {...loaded, context: held.context, weakenings: held.weakenings, since: held.since === 'base' ? `${base}, where it was verify` : approvedSince}
}

/** `npx tiers` or `tiers`: how the person runs this `tiers` from here, for the commands messages name. */
export function installedCommand(): string {
  return invokedAs(process.argv[1] ?? '', process.cwd())
}

/** What the reading of the project noticed: lines for stderr. */
export function warningsOf(project: Project): string[] {
  return [...project.warnings]
}

/**
 * The same, with a deprecated setting the project still sets: for the
 * commands a person runs to see what was read (`tiers contracts`), where it
 * is said; the others, run again and again by an agent, leave it out, as
 * the setting changes nothing they do.
 */
export function readingWarningsOf(project: Project): string[] {
  const warning = deprecationWarning(project.config)
  return [...project.warnings, ...(warning ? [warning] : [])]
}
