import {realpath, stat} from 'node:fs/promises'
import path from 'node:path'
import {FileReadError} from '@verification-tiers/runtime'
import {firstLine, loadProject, ProjectError, UserError} from '@verification-tiers/project'
import type {Project} from '@verification-tiers/project'
import {findProjectFolders} from './find-project.js'
import {judgeProgress} from './progress.js'
import {workflowClaims} from './project-state.js'
import type {WorkflowClaim} from './project-state.js'
import {openTaskLines} from './slice-evidence.js'
import {decideStop, readStopBlocks, recordStopDecision, stopHookOutput} from './stop-hook.js'
import type {SliceJudgement, StopDecision} from './stop-hook.js'

/** What the stop hook is asked. */
export interface StopHookRequest {
  /** The project folder given (`--dir`), used as it is and alone; absent or `null`: found from each of `from`. */
  dir?: string | null
  /**
   * Where the project is looked for, each folder upward as git finds `.git`,
   * in order: `tiers stop-hook` gives the hook input’s `cwd` (where the agent
   * works), the agent’s project folder (`CLAUDE_PROJECT_DIR`) and its own
   * working folder. Every project found from any of them is judged.
   */
  from: readonly string[]
  session: string
  maxBlocks: number
  /** Told what the reading of the project noticed that changes no decision (`project.warnings`), for the program to show. */
  onWarning?: (warning: string) => void
  /** How the agent runs tiers (`npx tiers` for a project's own install), for the commands the answer names; `tiers` when not given. */
  command?: string
}

/**
 * A coding agent’s Stop hook answered: the JSON object the agent reads.
 * The project folders are `dir`, else every project folder found from each
 * folder of `from` upward (`findProjectFolders`), each once; with none, the
 * work is not a verification-tiers project, so not the hook’s to hold
 * (`{}`). Every slice in progress of each is judged, whether or not it was
 * ever verified (see `judgeSlices`), and any one holds the agent. Never
 * throws: the agent reads a failed hook as a block, which no safety valve
 * could ever end. A project that cannot be read, or anything in
 * `project.problems`, blocks, one line each naming the file, under the
 * safety valve (`maxBlocks` blocks in a row per session); when even the
 * blocks cannot be counted, the agent may stop, with a warning.
 */
export async function answerStopHook(request: StopHookRequest): Promise<Record<string, string>> {
  const {session, maxBlocks} = request
  // Every project folder beside the first is judged too: a stray `.greenlight` never hides the `specs/` beside it.
  const dirs = request.dir ? [request.dir] : await projectFoldersFrom(request.from)
  if (dirs.length === 0) return {}
  // The blocks are counted in one folder: the first that is a folder, so the
  // project where the agent works (its `cwd`) when it is one. A hook that
  // finds what it found before keeps the count it kept, and the valve counts
  // one run of blocks however many projects are judged. An agent moving
  // between projects splits its count between their folders; each still
  // counts every block of its own, so the valve still ends the run. A
  // `.greenlight` that is no folder beside a project is judged, and blocks
  // as a project that cannot be read.
  const infos = await Promise.all(dirs.map((each) => stat(each).catch(() => null)))
  const dir = dirs[infos.findIndex((info) => info?.isDirectory())]
  // Where there is no folder, the blocks cannot be counted without creating one: say so, and let the agent stop.
  if (dir === undefined) {
    const found = infos[0] ? 'Unexpected file where the project folder should be' : 'no such project folder'
    return {
      systemMessage: `WARNING: ${dirs[0]}: ${found}, expected a folder holding CONTRACTS.md; the stop hook cannot check the work or count its blocks, so it lets the agent stop.`
    }
  }
  const projects: Project[] = []
  const unread: string[] = []
  for (const each of dirs) {
    try {
      const project = await loadProject(each)
      for (const warning of project.warnings) request.onWarning?.(warning)
      projects.push(project)
    } catch (error) {
      // A `.greenlight` found or named that cannot be read is a project that proves nothing, never “no project”.
      unread.push(describeProblem(error))
    }
  }
  const problem = unread.length > 0 ? unread.join('\n') : null
  let blocks: number
  try {
    blocks = await readStopBlocks(dir, session)
  } catch (error) {
    // Without its count the safety valve cannot work: let the agent stop rather than hold it forever.
    const would = problem ? ` The project cannot be checked: ${problem}` : ''
    return {systemMessage: `WARNING: ${firstLine(error)}; the stop hook cannot count its blocks, so it lets the agent stop. Fix or remove the file.${would}`}
  }
  let decision: StopDecision
  try {
    decision = decideStop({...(await judgeProjects(projects, unread)), blocks, maxBlocks, command: request.command})
  } catch (error) {
    decision = decideStop({slices: [], problems: [describeProblem(error)], blocks, maxBlocks, command: request.command})
  }
  try {
    await recordStopDecision(dir, session, decision)
  } catch (error) {
    // A block that cannot be counted could hold the agent forever: let it stop, saying what the hook would have said.
    const said = decision.reason ?? decision.systemMessage
    const unchecked = decision.decision === 'block' ? `\nThe stop hook would have blocked: ${said}` : said ? `\n${said}` : ''
    return {systemMessage: `WARNING: ${firstLine(error)}; the stop hook cannot count its blocks, so it lets the agent stop.${unchecked}`}
  }
  return stopHookOutput(decision)
}

/**
 * Every project folder found from each of `from` (`findProjectFolders`), in
 * order, each once however it is reached (a link, `..`): by its real path.
 */
async function projectFoldersFrom(from: readonly string[]): Promise<string[]> {
  const found: string[] = []
  const seen = new Set<string>()
  const starts = new Set<string>()
  for (const start of from) {
    const folder = path.resolve(start)
    if (starts.has(folder)) continue
    starts.add(folder)
    for (const dir of await findProjectFolders(folder)) {
      const key = await realpath(dir).catch(() => path.resolve(dir))
      if (seen.has(key)) continue
      seen.add(key)
      found.push(dir)
    }
  }
  return found
}

/**
 * Every slice in progress of each project, and the problems of each, with
 * the projects that could not be read. Of several projects, each slice and
 * criterion is named with its folder (`S-01 in /work/app/.greenlight`): two
 * projects may both have an `S-01`, and a criterion `C-01.1` of one is not
 * the other’s.
 */
async function judgeProjects(projects: readonly Project[], unread: readonly string[]): Promise<Awaited<ReturnType<typeof judgeSlices>>> {
  const judged: Awaited<ReturnType<typeof judgeSlices>> = {slices: [], problems: [...unread], openTasks: [], claims: [], broken: null, notes: [], changed: []}
  for (const project of projects) {
    const one = await judgeSlices(project)
    for (const slice of one.slices) judged.slices.push(projects.length > 1 ? inFolder(slice, project.dir) : slice)
    for (const line of one.problems) judged.problems.push(line)
    for (const line of one.openTasks) judged.openTasks.push(line)
    for (const line of one.claims) judged.claims.push(line)
    for (const line of one.notes) judged.notes.push(line)
    for (const line of one.changed) judged.changed.push(line)
    judged.broken ??= one.broken
  }
  return judged
}

/** A slice’s judgement with its id and its criteria’s named with the project folder: `S-01 in <dir>`. */
function inFolder(slice: SliceJudgement, dir: string): SliceJudgement {
  const named = <Item extends {id: string}>(item: Item): Item => ({...item, id: `${item.id} in ${dir}`})
  switch (slice.state) {
    case 'not-run':
    case 'stale':
      return {...named(slice), remaining: slice.remaining.map(named)}
    case 'failed':
      return {...named(slice), failures: slice.failures.map(named)}
    case 'passed':
      return {...named(slice), manual: slice.manual.map(named)}
  }
}

/**
 * Judge every slice in progress (`judgeProgress`), leaving out those done.
 * What the workflow’s own files say (`STATE.md`, `slices/*.md`:
 * `workflowClaims`) never makes a slice done: each place that calls a
 * slice complete while it is never verified, stale or failing is a line of
 * `claims`, saying what the slice lacks. `openTasks` are the open tasks of
 * the slices in progress; `notes` and `changed` are `judgeProgress`’s.
 */
export async function judgeSlices(
  project: Project
): Promise<{slices: SliceJudgement[]; problems: string[]; openTasks: string[]; claims: string[]; broken: string | null; notes: string[]; changed: string[]}> {
  const {slices: progress, problems, broken, notes, changed} = await judgeProgress(project)
  const slices = progress.flatMap(({judgement}) => (judgement.state === 'done' ? [] : [judgement]))
  // A slice still in progress with open tasks: the block names them, as its checkpoint would. An auto slice is done by its
  // passing run alone, with no person to decide: while its workflow lists tasks open, the agent is not done with it either.
  const judged = new Set(slices.map((judgement) => judgement.id))
  const autoDone = new Set(progress.flatMap(({judgement, tier}) => (judgement.state === 'done' && tier === 'auto' ? [judgement.id] : [])))
  const openTasks = project.slices
    .filter((slice) => judged.has(slice.id) || autoDone.has(slice.id))
    .flatMap((slice) => openTaskLines(slice).map((line) => `${line} (open task of slice ${slice.id})`))
  // What each slice lacks that has no passing run: that run, and for a verify slice not decided a person’s approval.
  const lacks = new Map<string, string>()
  const missing = {'not-run': 'it has no passing run', stale: 'its passing run is stale', failed: 'its latest run failed'} as const
  for (const {judgement, unanswered} of progress) {
    if (judgement.state in missing)
      lacks.set(judgement.id, `${missing[judgement.state as keyof typeof missing]}${unanswered ? ' and no person’s approval' : ''}`)
  }
  const claims = lacks.size === 0 ? [] : (await workflowClaims(project.dir)).flatMap((claim) => claimLines(claim, lacks.get(claim.slice)))
  return {slices, problems, openTasks, claims, broken, notes, changed}
}

/** What a claim of the workflow’s says of a slice in progress, and what the slice lacks; nothing for a slice that has a passing run. */
function claimLines(claim: WorkflowClaim, lacks: string | undefined): string[] {
  return lacks === undefined ? [] : [`${claim.file}:${claim.line} calls ${claim.slice} complete; that is the workflow’s word, not evidence: ${lacks}`]
}

/** A file and what is wrong with it, or an error the hook did not expect, in one line. */
function describeProblem(error: unknown): string {
  if (error instanceof ProjectError || error instanceof FileReadError || error instanceof UserError) return firstLine(error)
  const name = error instanceof Error ? error.name : 'error'
  return `Unexpected ${name} in tiers stop-hook (${firstLine(error)}), expected none: please report it`
}
