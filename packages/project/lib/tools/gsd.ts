import {stat} from 'node:fs/promises'
import path from 'node:path'
import type {ContractItem, Tier} from '@verification-tiers/contracts'
import type {FileContract, GsdRoadmapPhase, GsdUat} from '@verification-tiers/spec-tools'
import {defaultReadLimits, isSliceId, sliceIdRule} from '@verification-tiers/runtime'
import {openBudget} from '../budget.js'
import type {ReadBudget} from '../budget.js'
import type {ProjectProblem} from '../problems.js'
import type {SliceRecord} from '../records.js'
import {listFolder, unlistedFolder} from '../walk.js'
import {readCountedFile} from './read-file.js'
import type {OpenTask, ProjectTool, ToolReading, ToolReadOptions} from './types.js'

/** A phase folder: an optional project code, a number (`02`, `02.1`, `12A`), a dash, a name. */
const phaseFolder = /^(?:[A-Z]{1,6}-)?\d+[A-Za-z]?(?:\.\d+)*-\S/

/** A plan of a phase folder, `NN-MM-PLAN.md`: its id is the name before `-PLAN.md`. */
const planFile = /^(.+)-PLAN\.md$/

/** A UAT file of a phase folder: `NN-UAT.md` (a verify-work session), `NN-HUMAN-UAT.md` (the checks its verification left to a person). */
const uatFile = /(?:^|-)UAT\.md$/

/** The results GSD writes, in the order a record counts them; any other is counted after them, as written. */
const uatResults = ['pass', 'issue', 'pending', 'skipped', 'blocked']

/** A UAT file, as its record names it. */
const uatRecord = 'GSD’s UAT record'

/**
 * GSD (get-shit-done): `.planning/ROADMAP.md` and `.planning/phases/<NN-name>/`.
 * Each phase folder is a slice; its contracts are its roadmap entry (the
 * `**Success Criteria**` items), each plan (`NN-MM-PLAN.md`, its
 * `must_haves.truths`, and the `checkpoint:human-verify` tasks and
 * `<human-check>` blocks it plans) and its `NN-VERIFICATION.md`'s
 * `human_verification` entries, the checks it leaves to a person. A plan
 * without its `NN-MM-SUMMARY.md` is an open task, and so is each `gaps`
 * entry of a verification that found gaps. Statuses (the verification's,
 * a UAT file's results, the roadmap's ticks) are what the workflow says:
 * never a person's answer to the gate. Its UAT files (`NN-UAT.md`,
 * `NN-HUMAN-UAT.md`) are the slice's records: their results counted, shown
 * beside its checks, never approving, holding or changing its tier.
 */
export const gsd: ProjectTool = {
  name: 'gsd',
  folder: '.planning',

  /** A `ROADMAP.md`, a `phases/` folder holding a phase folder, or phases archived under `milestones/`; a `phases/` that cannot be listed makes it one, for the reader to name. */
  async recognises(dir) {
    const roadmap = await stat(path.join(dir, 'ROADMAP.md')).catch(() => null)
    if (roadmap?.isFile()) return true
    const refused: ProjectProblem[] = []
    const entries = await listFolder(path.join(dir, 'phases'), refused, {reads: () => false})
    if (refused.length > 0 || entries.some((entry) => entry.kind === 'folder' && phaseFolder.test(entry.name))) return true
    // A `.planning` whose phases were all archived with their milestones (`milestones/v1.0-phases/`): GSD's, with nothing active.
    const milestones = await listFolder(path.join(dir, 'milestones'), [], {reads: () => false})
    if (milestones.some((entry) => entry.kind === 'folder' && entry.name.endsWith('-phases'))) return true
    // A `.planning` that keeps its phases in workstreams or project folders only.
    return path.basename(dir) === gsd.folder && (await planningRoots(dir)).length > 1
  },

  read: readGsd,

  /** A phase folder GSD moved with its shipped milestone (`milestones/v1.0-phases/<id>`). */
  async archived(dir, id) {
    const milestones = await listFolder(path.join(dir, 'milestones'), [], {reads: () => false})
    for (const entry of milestones) {
      if (entry.kind !== 'folder' || !entry.name.endsWith('-phases')) continue
      if ((await stat(path.join(entry.path, id)).catch(() => null))?.isDirectory()) return true
    }
    return false
  }
}

/** A folder holding GSD's files: `.planning` itself, a workstream (`workstreams/<ws>/`), a project (`<project>/`); its slices' ids are prefixed with its name. */
interface PlanningRoot {
  dir: string
  prefix: string
}

/** The planning roots of `.planning`: itself, and each workstream or project folder under it that holds `phases/`. */
async function planningRoots(dir: string): Promise<PlanningRoot[]> {
  const roots: PlanningRoot[] = [{dir, prefix: ''}]
  for (const parent of [dir, path.join(dir, 'workstreams')]) {
    for (const entry of await listFolder(parent, [], {reads: () => false})) {
      if (entry.kind !== 'folder' || (parent === dir && ['phases', 'workstreams', 'milestones', 'tiers'].includes(entry.name))) continue
      const phases = await stat(path.join(entry.path, 'phases')).catch(() => null)
      if (phases?.isDirectory()) roots.push({dir: entry.path, prefix: `${entry.name}.`})
    }
  }
  return roots
}

async function readGsd(dir: string, options: ToolReadOptions): Promise<ToolReading> {
  const reading: ToolReading = {contracts: [], slices: [], problems: []}
  const budget = openBudget(dir, options.limits ?? defaultReadLimits, 'tiers.json')
  for (const root of await planningRoots(dir)) await readRoot(root, budget, options, reading)
  return reading
}

/** One planning root: its roadmap, and each phase folder under its `phases/`. */
async function readRoot(root: PlanningRoot, budget: ReadBudget, options: ToolReadOptions, reading: ToolReading): Promise<void> {
  const {readGsdRoadmap} = await import('@verification-tiers/spec-tools')
  const roadmapFile = path.join(root.dir, 'ROADMAP.md')
  const roadmapText = await readCountedFile(roadmapFile, budget, reading.problems)
  const active = typeof roadmapText === 'string' ? {file: roadmapFile, text: roadmapText, ...readGsdRoadmap(roadmapFile, roadmapText)} : null
  for (const problem of active?.problems ?? []) reading.problems.push(problem)
  const roadmap = roadmapIndex(active, await milestoneRoadmaps(root.dir, budget, reading.problems))
  // Phases archived with their milestone (`milestones/*-phases/`) are shipped: not read. Files beside the phase folders are no phases.
  const entries = await listFolder(path.join(root.dir, 'phases'), reading.problems, {reads: () => false})
  for (const {name, kind, path: folder} of entries) {
    if (kind !== 'folder') continue
    const id = `${root.prefix}${name}`
    if (!phaseFolder.test(name) || !isSliceId(id)) {
      const why = phaseFolder.test(name) ? `its name is no slice id (${sliceIdRule})` : 'expected a phase folder named `NN-name` (`02-auth`, `02.1-hotfix`)'
      reading.problems.push({file: folder, line: null, message: `Unexpected folder in phases/, ${why}; tiers does not read it`})
      continue
    }
    await readPhase(folder, id, roadmap, budget, options, reading)
  }
}

/** What a phase folder holds, read. */
interface PhaseFiles {
  contracts: FileContract[]
  openTasks: OpenTask[]
  /** Whether any check is left to a person (planned or listed by the verifier). */
  human: boolean
}

/** A roadmap read: its file, its text and the phases it details. */
interface ReadRoadmap {
  file: string
  text: string
  phases: Map<string, GsdRoadmapPhase>
}

/** A phase's roadmap entry, with the roadmap that details it. */
type RoadmapEntry = {roadmap: ReadRoadmap; phase: GsdRoadmapPhase}

const isRoadmapName = (name: string): boolean => name.endsWith('-ROADMAP.md')

/** The roadmaps a milestone kept (`milestones/v1.0-ROADMAP.md`): where a phase still under `phases/` may be detailed once its milestone shipped. */
async function milestoneRoadmaps(dir: string, budget: ReadBudget, problems: ProjectProblem[]): Promise<ReadRoadmap[]> {
  const {readGsdRoadmap} = await import('@verification-tiers/spec-tools')
  const found: ReadRoadmap[] = []
  // A milestone roadmap that cannot be read may hold a phase's criteria: it holds, as ROADMAP.md would. What one says is its own,
  // and nothing else of milestones/ is read: a link or a name there that is no roadmap is no problem.
  const listed: ProjectProblem[] = []
  const entries = await listFolder(path.join(dir, 'milestones'), listed, {reads: isRoadmapName})
  for (const problem of listed) if (problem.file === path.join(dir, 'milestones') || isRoadmapName(path.basename(problem.file))) problems.push(problem)
  for (const entry of entries) {
    if (entry.kind !== 'file' || !isRoadmapName(entry.name)) continue
    const text = await readCountedFile(entry.path, budget, problems)
    if (typeof text === 'string') found.push({file: entry.path, text, phases: readGsdRoadmap(entry.path, text).phases})
  }
  return found
}

/**
 * Each phase's entry: in `ROADMAP.md` when it lists criteria there, else
 * in the one milestone roadmap that lists criteria for its number (a
 * number several milestones detail, as when a milestone restarts the
 * numbering, is none of theirs), else `ROADMAP.md`'s entry without them.
 */
function roadmapIndex(active: ReadRoadmap | null, milestones: readonly ReadRoadmap[]): (number: string) => RoadmapEntry | null {
  return (number) => {
    const own = active?.phases.get(number)
    if (active && own && own.criteria.length > 0) return {roadmap: active, phase: own}
    // An entry of ROADMAP.md that only says where the phase stands gives way to the milestone's that lists its criteria.
    const kept = milestones.filter((each) => (each.phases.get(number)?.criteria.length ?? 0) > 0)
    if (kept.length === 1) return {roadmap: kept[0], phase: kept[0].phases.get(number)!}
    return active && own ? {roadmap: active, phase: own} : null
  }
}

async function readPhase(
  folder: string,
  id: string,
  roadmap: (number: string) => RoadmapEntry | null,
  budget: ReadBudget,
  options: ToolReadOptions,
  reading: ToolReading
): Promise<void> {
  const {firstLine, gsdContract, gsdPhaseNumber, readGsdPlan, readGsdValidation, readGsdVerification, verificationProblems} = await import(
    '@verification-tiers/spec-tools'
  )
  const unlisted = await unlistedFolder(folder)
  if (unlisted) {
    reading.problems.push(unlisted)
    return
  }
  const files = (await listFolder(folder, reading.problems, {reads: (name) => name.endsWith('.md')}))
    .filter((entry) => entry.kind === 'file')
    .map((entry) => entry.name)
  const found = roadmap(gsdPhaseNumber(path.basename(folder)) ?? '')
  const entry = found?.phase ?? null
  const read: PhaseFiles = {contracts: [], openTasks: [], human: false}
  const pending: Array<Omit<Parameters<typeof gsdContract>[0], 'tier'>> = []
  if (found && entry && entry.criteria.length > 0) {
    pending.push({
      label: `${entry.title} (success criteria)`,
      file: found.roadmap.file,
      text: found.roadmap.text,
      slice: id,
      headingPosition: entry.headingPosition,
      criteria: entry.criteria,
      steps: []
    })
  }
  /** A file of the phase as a unit: placed at `headingPosition`, what an approval covers starting at its first line. */
  const fileUnit = (file: string, text: string, label: string, headingPosition: ContractItem['position'], criteria: ContractItem[], steps: ContractItem[]) => ({
    label,
    file,
    text,
    slice: id,
    headingPosition,
    start: firstLine(text).start,
    criteria,
    steps
  })
  /** The files of the phase `pattern` names, in name order, each read; one that cannot be read is a problem, and skipped. */
  async function* phaseFiles(pattern: RegExp): AsyncGenerator<{name: string; file: string; text: string}> {
    for (const name of files.filter((each) => pattern.test(each)).sort()) {
      const file = path.join(folder, name)
      const text = await readCountedFile(file, budget, reading.problems)
      if (typeof text === 'string') yield {name, file, text}
    }
  }
  for await (const {name, file, text} of phaseFiles(planFile)) {
    const plan = readGsdPlan(file, text)
    for (const problem of plan.problems) reading.problems.push(problem)
    const planId = planFile.exec(name)![1]
    // A plan is done when its summary exists: GSD writes it after executing the plan.
    if (!files.includes(`${planId}-SUMMARY.md`)) read.openTasks.push({text: `Plan ${planId} has no ${planId}-SUMMARY.md: not executed`, file, line: 1})
    if (plan.humanChecks.length > 0) read.human = true
    if (plan.truths.length + plan.humanChecks.length === 0) continue
    // Placed at its truths (a truth removed is named there), else its first planned check.
    const at = plan.truthsPosition ?? plan.humanChecks[0]?.position ?? firstLine(text)
    pending.push(fileUnit(file, text, `Plan ${planId} (must-haves)`, at, plan.truths, plan.humanChecks))
  }
  for await (const {name, file, text} of phaseFiles(/(?:^|-)VERIFICATION\.md$/)) {
    const verification = readGsdVerification(file, text)
    for (const problem of verification.problems) reading.problems.push(problem)
    if (verification.humanChecks.length > 0) {
      read.human = true
      const at = verification.checksPosition ?? firstLine(text)
      pending.push(fileUnit(file, text, `${name.replace(/\.md$/, '')} (human verification)`, at, [], verification.humanChecks))
    }
    for (const problem of verificationProblems(file, verification)) reading.problems.push(problem)
    if (verification.status === 'gaps_found') {
      for (const gap of verification.gaps) read.openTasks.push({text: `Gap: ${gap.text}`, file, line: gap.position.start.line})
    }
  }
  // The checks the phase's validation strategy leaves to a person, planned before any verification.
  for await (const {name, file, text} of phaseFiles(/(?:^|-)VALIDATION\.md$/)) {
    const checks = readGsdValidation(text)
    if (checks.length === 0) continue
    read.human = true
    pending.push(fileUnit(file, text, `${name.replace(/\.md$/, '')} (manual-only checks)`, checks[0].position, [], checks))
  }
  const records = await readUatRecords(folder, files, budget)
  // A phase with a check left to a person is verify, whatever the default.
  const tier: Tier = read.human ? 'verify' : options.defaultTier
  for (const parts of pending) read.contracts.push(gsdContract({...parts, tier}))
  if (read.contracts.length === 0) {
    reading.problems.push({
      file: folder,
      line: null,
      message:
        'Unexpected phase without criteria, expected its `**Success Criteria**` in ROADMAP.md (`### Phase N: Name`) or a plan with `must_haves: truths:`; the phase is not gated'
    })
    return
  }
  for (const contract of read.contracts) reading.contracts.push(contract)
  reading.slices.push({
    id,
    name: entry?.title ?? id,
    contracts: read.contracts,
    missing: [],
    tier: read.human ? null : options.defaultTier === 'auto' ? 'auto' : null,
    humanCheck: null,
    verification: null,
    retired: null,
    openTasks: read.openTasks,
    optionalTasks: [],
    ...(records.length > 0 ? {records} : {})
  })
}

/**
 * The UAT files of a phase, each as a record of what it says: its tests'
 * results counted and its status. A file in another shape (results in a
 * table) or that cannot be read is a record saying so, never a problem:
 * it is the workflow's transcript, not a unit the gate reads.
 */
async function readUatRecords(folder: string, files: readonly string[], budget: ReadBudget): Promise<SliceRecord[]> {
  const {readGsdUat} = await import('@verification-tiers/spec-tools')
  const records: SliceRecord[] = []
  for (const name of files.filter((file) => uatFile.test(file)).sort()) {
    const file = path.join(folder, name)
    const unread: ProjectProblem[] = []
    const text = await readCountedFile(file, budget, unread)
    if (typeof text !== 'string') {
      if (text === null) records.push({what: uatRecord, file, line: null, says: `not read: ${unread[0]?.message ?? 'unreadable'}`})
      continue
    }
    const uat = readGsdUat(file, text)
    records.push({what: uatRecord, file, line: uat.statusLine, says: uatSays(uat)})
  }
  return records
}

/** What a UAT file records, short: `3 pass, 1 issue, 2 pending (status partial)`. */
function uatSays(uat: GsdUat): string {
  const status = uat.status === null ? '' : ` (status ${uat.status})`
  if (!uat.tests.some((test) => test.result !== null)) return `tests not in a shape tiers can list${status}`
  const counts = new Map<string, number>(uatResults.map((result) => [result, 0]))
  for (const {result} of uat.tests) if (result !== null) counts.set(result, (counts.get(result) ?? 0) + 1)
  const parts = [...counts].filter(([, count]) => count > 0).map(([result, count]) => `${count} ${result}`)
  const without = uat.tests.filter((test) => test.result === null).length
  if (without > 0) parts.push(`${without} without a result`)
  return `${parts.join(', ')}${status}`
}
