import type {ContractItem, ContractText, Tier} from '@verification-tiers/contracts'
import {isTier} from '@verification-tiers/contracts/gate-terms'
import {contractTier, readSliceState} from '@verification-tiers/runtime'
import {findSlice, formatProblem, heldGateContext, loadProject, UserError} from '@verification-tiers/project'
import type {LoadedContract, PlacedWeakening, Project, ProjectProblem, ProjectSlice} from '@verification-tiers/project'
import {dirOf, readingWarningsOf} from './shared.js'
import type {Command} from './shared.js'

/** One criterion or step as `tiers contracts` shows it. */
interface ShownItem {
  text: string
  line: number
  column: number
  check: ContractItem['check']
}

/** One contract as `tiers contracts` shows it: what the reader took, and where from. */
interface ShownContract {
  id: string | null
  name: string
  label: string
  file: string
  line: number
  dialect: string
  slices: string[]
  /** The tier as written, `null` when there is none. */
  declaredTier: string | null
  tierInSlice: Tier
  /** Where the effective tier comes from: the contract, its slice’s stated tier, or the default. */
  tierFrom: 'contract' | 'slice' | 'default'
  criteria: ShownItem[]
  steps: ShownItem[]
  /** Text under a criteria or steps label that was not read as items. */
  unread: Array<{field: string; kind: string; text: string; line: number; column: number}>
  /** A verify contract with neither criteria nor steps. */
  nothingToCheck: boolean
}

/** `tiers contracts [--slice <id>]`: every contract as it was read, so a misread shows. */
export const contracts: Command = async (input) => {
  if (input.positionals.length > 0) throw new UserError('Unexpected arguments, expected `tiers contracts [--slice <slice>]`')
  // A graph it cannot read is shown as what was not read, with the contracts that were.
  const project = await loadProject(await dirOf(input), {graphError: 'problem'})
  const slice = input.slice === null ? null : findSlice(project, input.slice)
  const shown = (slice?.contracts ?? project.contracts).map((loaded) => showContract(project, loaded))
  const summary = summarize(shown)
  const changed = await changedSinceApproved(project, slice ? [slice] : project.slices)
  const sections = [...shown.map(renderContract), renderSummary(summary, project)]
  if (changed.length > 0) sections.push(renderChanged(changed))
  if (project.problems.length > 0) sections.push(renderProblems(project.problems))
  return {
    text: sections.join('\n\n'),
    data: {
      slice: slice?.id ?? null,
      contracts: shown,
      summary,
      slices: project.slices.length,
      slicesFrom: project.slicesFrom,
      changed,
      problems: project.problems
    },
    warnings: readingWarningsOf(project)
  }
}

function showContract(project: Project, loaded: LoadedContract): ShownContract {
  const {contract} = loaded
  const slices = project.slices.filter((slice) => slice.contracts.includes(loaded))
  // The first slice that states a tier gives it, as the gate resolves each of its slices.
  const {tier, from: tierFrom} = contractTier(contract, slices.find((slice) => slice.tier !== null)?.tier ?? null)
  const item = (one: ContractItem): ShownItem => ({text: one.text, line: one.position.start.line, column: one.position.start.column, check: one.check})
  const unread = contract.fields.flatMap((field) =>
    field.unread.map((text: ContractText) => ({
      field: field.label,
      kind: text.kind,
      text: text.text,
      line: text.position.start.line,
      column: text.position.start.column
    }))
  )
  return {
    id: contract.id,
    name: contract.name,
    label: contract.label,
    file: loaded.file,
    line: contract.headingPosition.start.line,
    dialect: contract.dialect,
    slices: slices.length > 0 ? slices.map((slice) => slice.id) : contract.slice ? [contract.slice] : [],
    declaredTier: contract.tier,
    tierInSlice: tier,
    tierFrom,
    criteria: contract.criteria.map(item),
    steps: contract.steps.map(item),
    unread,
    nothingToCheck: tier === 'verify' && contract.criteria.length === 0 && contract.steps.length === 0
  }
}

function renderContract(contract: ShownContract): string {
  const lines = [`${contract.label} — ${contract.file}:${contract.line}`]
  const slices = contract.slices.length > 0 ? contract.slices.join(', ') : 'none'
  lines.push(`  dialect: ${contract.dialect}; slice: ${slices}; tier: ${contract.tierInSlice} (${tierSource(contract)})`)
  const ignored = contract.tierInSlice === 'auto' ? ', ignored: the tier is auto' : ''
  for (const [title, items] of [
    ['acceptance criteria', contract.criteria],
    ['steps', contract.steps]
  ] as const) {
    if (items.length === 0) continue
    lines.push(`  ${title} (${items.length}${ignored}):`)
    for (const one of items) lines.push(`    ${one.line}: ${one.text}${describeCheck(one.check)}`)
  }
  if (contract.unread.length > 0) {
    lines.push('  not read as items:')
    for (const one of contract.unread) lines.push(`    ${one.line}: ${one.kind} under \`${one.field}\`: ${one.text}`)
  }
  if (contract.nothingToCheck) lines.push('  nothing to check: verify, with no acceptance criteria or steps')
  return lines.join('\n')
}

function tierSource(contract: ShownContract): string {
  if (contract.tierFrom === 'slice') return 'none written: its slice’s tier'
  if (contract.tierFrom === 'default') return 'none written: the default'
  if (isTier(contract.declaredTier)) return `written ${contract.declaredTier}`
  return `written \`${contract.declaredTier}\`, which is not auto or verify`
}

function describeCheck(check: ContractItem['check']): string {
  if (!check) return ''
  return check.method === 'bash' ? ` [check: \`${check.command}\`]` : ' [check: manual]'
}

interface Summary {
  contracts: number
  files: number
  /** Contracts by the tier that applies. */
  verify: number
  auto: number
  /** Contracts by the tier as written: `none` when there is no Verification field, `other` when it is not `auto` or `verify`. */
  written: {verify: number; auto: number; other: number; none: number}
  /** Contracts with no tier written that take their slice’s stated tier. */
  fromSlice: number
  /** Criteria and steps of the verify contracts. */
  criteria: number
  steps: number
  nothingToCheck: number
  unread: number
}

function summarize(shown: ShownContract[]): Summary {
  const verify = shown.filter((contract) => contract.tierInSlice === 'verify')
  const count = (test: (contract: ShownContract) => boolean) => shown.filter(test).length
  return {
    contracts: shown.length,
    files: new Set(shown.map((contract) => contract.file)).size,
    verify: verify.length,
    auto: shown.length - verify.length,
    written: {
      verify: count((contract) => contract.declaredTier === 'verify'),
      auto: count((contract) => contract.declaredTier === 'auto'),
      other: count((contract) => contract.declaredTier !== null && !isTier(contract.declaredTier)),
      none: count((contract) => contract.declaredTier === null)
    },
    fromSlice: count((contract) => contract.tierFrom === 'slice'),
    criteria: verify.reduce((sum, contract) => sum + contract.criteria.length, 0),
    steps: verify.reduce((sum, contract) => sum + contract.steps.length, 0),
    nothingToCheck: count((contract) => contract.nothingToCheck),
    unread: shown.reduce((sum, contract) => sum + contract.unread.length, 0)
  }
}

/** A change that lowered what a person approved, with its slice. */
type Changed = PlacedWeakening & {slice: string}

/** What lowered the bar of each of `slices` since a person approved it, from its state. */
async function changedSinceApproved(project: Project, slices: readonly ProjectSlice[]): Promise<Changed[]> {
  const changed: Changed[] = []
  for (const slice of slices) {
    const {weakenings} = heldGateContext(project, slice, await readSliceState(project.dir, slice.id))
    for (const weakening of weakenings) changed.push({...weakening, slice: slice.id})
  }
  return changed
}

function renderChanged(changed: readonly Changed[]): string {
  return [
    `changed since a person approved (${changed.length}; each slice stays verify until a person approves it as it is):`,
    // A contract’s change is named with its slice; the slice’s own names it already.
    ...changed.map((change) => `  ${change.contract === null ? '' : `${change.slice}: `}${change.line}`)
  ].join('\n')
}

/** What was not read or matched: one `file:line: message` line each. */
function renderProblems(problems: readonly ProjectProblem[]): string {
  return [
    `not read or not matched (${problems.length}; the gate passes nothing until each is resolved):`,
    ...problems.map((problem) => `  ${formatProblem(problem)}`)
  ].join('\n')
}

function renderSummary(summary: Summary, project: Project): string {
  const plural = (count: number, one: string, many = one + 's') => `${count} ${count === 1 ? one : many}`
  const {written} = summary
  const none =
    summary.fromSlice > 0
      ? `${written.none} none (${summary.fromSlice} from the slice, ${written.none - summary.fromSlice} verify by default)`
      : `${written.none} none (verify by default)`
  const lines = [
    `${plural(summary.contracts, 'contract')} in ${plural(summary.files, 'file')}: ${summary.verify} verify, ${summary.auto} auto`,
    `tiers as written: ${written.verify} verify, ${written.auto} auto, ${written.other > 0 ? `${written.other} other (read as verify), ` : ''}${none}`,
    `verify contracts: ${plural(summary.criteria, 'acceptance criterion', 'acceptance criteria')}, ${plural(summary.steps, 'step')}; ${summary.nothingToCheck} with nothing to check`,
    `slices: ${project.slices.length}, from ${project.slicesFrom === 'contracts' ? 'the contracts’ Slice fields' : project.slicesFrom}`
  ]
  if (summary.unread > 0) lines.push(`${plural(summary.unread, 'block')} under criteria or steps labels not read as items (see “not read as items” above)`)
  return lines.join('\n')
}
