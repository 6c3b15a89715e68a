/**
 * The gate CI holds a merge with: every verify slice a branch changed is
 * approved for its contracts as they are, and the project reads without a
 * problem. What decides is the state a person's answers left
 * (`<project>/tiers/<slice>.json`, committed with the branch), never what
 * the workflow files say.
 */
import {mkdir, mkdtemp, realpath, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {findProjectFolders, gateContext, heldGateContext, loadProject, placeWeakenings, UserError} from '@verification-tiers/project'
import type {HeldContext, Project, ProjectSlice} from '@verification-tiers/project'
import {approvedPins, decisionSource, FileReadError, findWeakenings, holdSlice, readSliceState, sliceSubject, sliceThreshold} from '@verification-tiers/runtime'
import type {AnswerBy, AnswerChannel, GateContext, ResolvedSlice, SliceDecision, SlicePins, SliceState, Weakening} from '@verification-tiers/runtime'
import {GitError, readCatFileBatch, runGit, runGitBytes} from './git.js'
import {judgeHistory} from './history.js'
import {projectProblems} from './slice-evidence.js'

/** A verify slice the merge waits for, or what keeps the project from being judged. */
export interface MergeHold {
  /** The project folder. */
  project: string
  /** The slice, `null` for a problem of the project. */
  slice: string | null
  /** One line: `S-01 Campaign Cards: verify, never approved (…/CONTRACTS.md:12, …)`, or the problem. */
  line: string
  /** For a slice changed so that it asks less of a person: since their approval, or since `base`. */
  since?: 'approval' | 'base'
  /** For a verify slice the branch had and archived, moved or deleted: the newest commit that has it (`base` as given, or a commit's hash). */
  lastAt?: string
}

/** Who approved a slice the merge passes, and how: what a reviewer of the branch checks. */
export interface MergeApproval {
  project: string
  slice: string
  status: SliceDecision['status']
  /** When the answer (or the skip) was given. */
  at: string
  by: AnswerBy | null
  channel: AnswerChannel
  /** One line: `S-01 Greeting: approved by Ada <ada@example.com>, at a terminal, 2025-01-01T10:00:00.000Z`. */
  line: string
}

/** What the merge gate found. */
export interface MergeJudgement {
  holds: MergeHold[]
  /** Verify slices approved for their contracts as they are. */
  approved: string[]
  /** Who approved each of `approved`, and how. */
  approvals: MergeApproval[]
  /** Verify slices the branch did not change since `base` (with `base` only): not the branch's to approve. */
  unchanged: string[]
  /** State files no slice has, one line each: named, never held. */
  orphans: string[]
}

/** How the merge gate looks. */
export interface MergeGateOptions {
  /** The project folder given (`--dir`), alone; else every project folder found from `cwd` upward. */
  dir: string | null
  cwd: string
  /** A git revision the branch started from: only slices whose contracts changed since it are judged. */
  base: string | null
}

/**
 * Judge the merge: each verify slice approved (or accepted, at an
 * escalation) for its contracts as they are passes, with who approved it
 * and how; one never approved, approved for other contracts (stale), or
 * rejected holds the merge, named with its verify contracts' places. With
 * `base`, a slice whose contracts are as they were at `base` is left to
 * whoever changed it. A slice whose bar is lower than a person approved
 * (see `findWeakenings`), or, with `base`, lower than it was at `base` with
 * no approval of it as it is, counts as verify and holds the merge, each
 * change named with its old and new text and its place. A project that
 * cannot be read, a problem of one, a state file that cannot be read or
 * whose decision its answers do not give, and one that lost history
 * committed at `base` (else at `HEAD`) hold the merge too. With `base`, a
 * slice that was verify there and that the branch archived, moved or
 * deleted holds it unless a person approved it as it last was (see
 * `judgeGone`). State files no slice has are named.
 */
export async function judgeMerge({dir, cwd, base}: MergeGateOptions): Promise<MergeJudgement> {
  const dirs = dir === null ? await findProjectFolders(cwd) : [dir]
  const judged: MergeJudgement = {holds: [], approved: [], approvals: [], unchanged: [], orphans: []}
  if (dirs.length === 0) {
    judged.holds.push({
      project: cwd,
      slice: null,
      line: `${cwd}: Unexpected folder without a project, expected .greenlight, specs, openspec, .kiro, .planning, _bmad-output or .bmad-core here or above`
    })
  }
  for (const folder of dirs) {
    // The agent can write the user's cache folder: the merge gate reads every file itself.
    const project = await loadProject(folder, {cache: false})
    for (const line of projectProblems(project)) judged.holds.push({project: folder, slice: null, line})
    const before = base === null ? null : await slicesAtBase(project, base)
    // A tool's slice written before the branch is still the branch's when the branch did its work: Greenlight's contracts say what is the branch's.
    const touched = base === null || project.tool === 'greenlight' ? null : touchedBy(await changedSince(project.dir, base))
    const history = await judgeHistory(project, base ?? 'HEAD')
    for (const {slice, line} of history.holds) judged.holds.push({project: folder, slice, line})
    for (const line of history.orphans) judged.orphans.push(line)
    // The contracts of the slices a person approved as they are: a slice gone under one id and approved under another (renamed) is approved.
    const approvedHashes = new Set<string>()
    for (const slice of project.slices) {
      // Only a verify slice's state decides here; one that cannot be read holds whatever the slice's tier.
      const state = await readStateOrHold(project.dir, folder, slice.id, judged)
      if (!state) continue
      // Lowered since a person approved it, or since `base` with no approval of it as it is: verify until a person confirms.
      const {context, weakenings, since} = heldAtBase(project, slice, state, before?.get(slice.id))
      if (context.slice.tier !== 'verify') continue
      const decision = state.decision
      const source = decisionSource(state)
      if (weakenings.length === 0 && decision && source && decision.contractsHash === context.contractsHash) {
        judged.approved.push(slice.id)
        judged.approvals.push(approvalOf(folder, sliceLabel(slice), slice.id, decision, source.entry))
        approvedHashes.add(context.contractsHash)
        continue
      }
      if (weakenings.length === 0 && before?.get(slice.id)?.contractsHash === context.contractsHash && !touched?.(slice.id)) {
        judged.unchanged.push(slice.id)
        continue
      }
      const named = sliceLabel(slice)
      if (weakenings.length > 0) {
        const when = since === 'approval' ? 'changed since a person approved it' : `changed since ${base}, where it was verify`
        judged.holds.push({
          project: folder,
          slice: slice.id,
          line: `${named}: ${when}, not confirmed by a person: ${weakenings.map((weakening) => weakening.line).join('; ')}`,
          since: since ?? 'approval'
        })
        continue
      }
      const why =
        decision !== null
          ? `${decision.status} for other contracts: they changed since`
          : state.rejectionCount > 0
            ? `rejected (${state.rejectionCount} of ${sliceThreshold({threshold: project.threshold}, state)}), not approved since`
            : 'never approved'
      const places = verifyPlaces(slice, context.slice)
      judged.holds.push({project: folder, slice: slice.id, line: `${named}: verify, ${why}${places.length > 0 ? ` (${places.join(', ')})` : ''}`})
    }
    if (base !== null && before) await judgeGone(project, base, before, approvedHashes, judged)
  }
  return judged
}

/**
 * The verify slices the branch had that the project no longer has
 * (archived, moved, renamed or deleted, as `openspec archive` or a GSD
 * milestone's completion moves them, whether they were at `base` or new on
 * the branch): each passes only when its state holds a person's approval
 * of the slice as it last was, or a person approved the same contracts
 * under another id (it was renamed); else it holds the merge, named with
 * its places there.
 */
async function judgeGone(
  project: Project,
  base: string,
  before: ReadonlyMap<string, SliceAtBase>,
  approvedHashes: ReadonlySet<string>,
  judged: MergeJudgement
): Promise<void> {
  for (const [id, last] of await goneSlices(project, base, before)) {
    if (approvedHashes.has(last.contractsHash)) continue
    const state = await readStateOrHold(project.dir, project.dir, id, judged)
    if (!state) continue
    const decision = state.decision
    const source = decisionSource(state)
    if (decision && source && decision.contractsHash === last.contractsHash) {
      judged.approved.push(id)
      judged.approvals.push(approvalOf(project.dir, last.label, id, decision, source.entry))
      continue
    }
    const at = last.rev === base ? base : last.rev.slice(0, 7)
    judged.holds.push({
      project: project.dir,
      slice: id,
      line: `${last.label}: verify, gone since ${base} (archived, moved or deleted), not approved by a person as it last was, at ${at}${last.places.length > 0 ? ` (${last.places.join(', ')})` : ''}`,
      lastAt: last.rev
    })
  }
}

/** A slice as a commit holds it: that commit, its label, the hash of its contracts, and its verify contracts' places from the repository's root. */
interface LastVersion {
  rev: string
  label: string
  contractsHash: string
  places: string[]
}

/**
 * Each verify slice the branch had and the project has no longer, as the
 * newest tree of the branch that has it holds it: the working tree's
 * `HEAD` (for what is deleted but not committed), then every commit of
 * the branch since `base` that touched the project folder, on every side
 * of its merges, newest first, then the commit the branch started from.
 * What `base` removed, and the branch took with a merge, is not the
 * branch's.
 */
async function goneSlices(project: Project, base: string, before: ReadonlyMap<string, SliceAtBase>): Promise<Map<string, LastVersion>> {
  const present = new Set(project.slices.map((slice) => slice.id))
  const repository = await repositoryOf(project)
  const {root, relative} = repository
  await refuseShallow(root, base)
  const baseCommit = (await runGit(root, ['rev-parse', `${base}^{commit}`])).trim()
  const fork = await forkPoint(root, base)
  const folder = relative === '' ? '.' : relative
  const head = (await runGit(root, ['rev-parse', 'HEAD'])).trim()
  const uncommitted = (await runGit(root, ['diff', '--name-only', '-z', 'HEAD', '--', folder])) !== ''
  const commits = (await runGit(root, ['rev-list', '--topo-order', '--full-history', `${base}..HEAD`, '--', folder])).split('\n').filter((rev) => rev !== '')
  const found = new Map<string, LastVersion & {commit: string}>()
  for (const rev of new Set([...(uncommitted ? [head] : []), ...commits, fork])) {
    await withProjectAt(repository, rev, (then, fromRoot) => {
      for (const slice of then?.slices ?? []) {
        if (present.has(slice.id) || found.has(slice.id)) continue
        const {contractsHash, slice: resolved} = gateContext(then!, slice)
        if (resolved.tier !== 'verify') continue
        found.set(slice.id, {
          rev: rev === baseCommit ? base : rev,
          commit: rev,
          label: sliceLabel(slice),
          contractsHash,
          places: verifyPlaces(slice, resolved, fromRoot)
        })
      }
    })
  }
  // A slice `base` does not have, which its history had where the branch's diverged from it: `base` removed it, and the branch took that with a merge.
  const removedByBase = new Map<string, Promise<Set<string>>>()
  for (const [id, last] of found) {
    if (before.has(id)) continue
    const diverged = (await runGit(root, ['merge-base', base, last.commit])).trim()
    if (!removedByBase.has(diverged))
      removedByBase.set(
        diverged,
        withProjectAt(repository, diverged, (then) => new Set(then?.slices.map((slice) => slice.id)))
      )
    if ((await removedByBase.get(diverged)!).has(id)) found.delete(id)
  }
  return found
}

/** The commit the branch started from: the newest that `HEAD` and `base` share. */
async function forkPoint(root: string, base: string): Promise<string> {
  try {
    return (await runGit(root, ['merge-base', base, 'HEAD'])).trim()
  } catch (error) {
    if (!(error instanceof GitError)) throw error
    throw new UserError(`Unexpected --base ${JSON.stringify(base)} with no commit in common with HEAD, expected the branch the pull request goes into`)
  }
}

/** A shallow clone lacks the commits that show a slice the branch archived or deleted: refused, not judged on part of them. */
async function refuseShallow(root: string, base: string): Promise<void> {
  if ((await runGit(root, ['rev-parse', '--is-shallow-repository'])).trim() !== 'true') return
  throw new UserError(
    `Unexpected shallow clone of ${root}, expected the history since --base ${base}: a slice the branch archived or deleted is judged as it last was (fetch it whole: actions/checkout's fetch-depth: 0)`
  )
}

/** Who gave the answer (or the skip) behind a slice's decision, and how, with its line. */
function approvalOf(project: string, label: string, slice: string, decision: SliceDecision, entry: {at: string; by?: AnswerBy | null}): MergeApproval {
  const by = entry.by ?? null
  const who =
    by === null ? 'no one named (git’s user.name and user.email were unset)' : [by.name, by.email === null ? null : `<${by.email}>`].filter(Boolean).join(' ')
  const what = decision.status === 'approved' ? 'approved' : 'accepted as auto (escalation choice 3)'
  // The history counts only an answer given at a terminal (`decisionSource`).
  return {project, slice, status: decision.status, at: entry.at, by, channel: 'terminal', line: `${label}: ${what} by ${who}, at a terminal, ${entry.at}`}
}

/** The slice's state, or `null` when it cannot be read: then it holds the merge with its one line. */
async function readStateOrHold(dir: string, project: string, slice: string, judged: MergeJudgement): Promise<SliceState | null> {
  return readSliceState(dir, slice).catch((error: unknown) => {
    if (!(error instanceof FileReadError)) throw error
    judged.holds.push({project, slice, line: error.message})
    return null
  })
}

/** `file:line` of each of the slice's contracts that is verify in it (`resolved`), the file as `name` gives it. */
function verifyPlaces(slice: ProjectSlice, resolved: ResolvedSlice, name: (file: string) => string = (file) => file): string[] {
  return slice.contracts
    .filter((_, index) => resolved.contracts[index]?.tierInSlice === 'verify')
    .map(({file, contract}) => `${name(file)}:${contract.headingPosition.start.line}`)
}

/** `S-01 Greeting`, or `S-01` for a slice named by its id. */
function sliceLabel(slice: ProjectSlice): string {
  return slice.name === slice.id ? slice.id : `${slice.id} ${slice.name}`
}

/** A slice as it was at a base revision: the hash of its contracts, and what an approval of it would have pinned. */
export interface SliceAtBase {
  contractsHash: string
  pins: SlicePins | undefined
}

/**
 * A slice’s gate context held at the bar a person approved (`since`
 * `approval`), else at the bar it had at a base revision (`then`, the slice
 * there) unless a person approved it as it is (`since` `base`); `since`
 * `null` when nothing lowered it.
 */
export function heldAtBase(
  project: Project,
  slice: ProjectSlice,
  state: SliceState,
  then: SliceAtBase | undefined
): HeldContext & {since: 'approval' | 'base' | null} {
  const held = heldGateContext(project, slice, state)
  if (held.weakenings.length > 0) return {...held, since: 'approval'}
  const lowered = loweredSince(then, held.context, state)
  if (lowered.length === 0) return {...held, since: null}
  return {context: {...held.context, slice: holdSlice(held.context.slice, lowered)}, weakenings: placeWeakenings(slice, lowered), since: 'base'}
}

/**
 * What lowered the slice since `base` (`then`), unless a person approved it
 * as it is (an approval whose pins it does not fall below): nothing when the
 * slice is new since `base`.
 */
function loweredSince(then: SliceAtBase | undefined, context: GateContext, state: SliceState): Weakening[] {
  if (!then?.pins || !context.pins) return []
  const approved = approvedPins(state)
  if (approved && findWeakenings(approved, context.pins, sliceSubject(context.slice)).length === 0) return []
  return findWeakenings(then.pins, context.pins, sliceSubject(context.slice))
}

/** The files a project's readers read besides its own folder: markdown, and settings and configurations (`core-config.yaml`, `_bmad/bmm/config.yaml`). */
const readableAtBase = /\.(?:md|markdown|mdown|mkdn|mkd|mdwn|mkdown|ron|json|ya?ml|toml)$/i

/**
 * The hash of each slice's contracts at `base`, and its pins: the project
 * as git holds it there (see `withProjectAt`). A folder git does not know
 * at `base` has no slices then.
 */
export async function slicesAtBase(project: Project, base: string): Promise<Map<string, SliceAtBase>> {
  const repository = await repositoryOf(project)
  const {root} = repository
  try {
    await runGit(root, ['rev-parse', '--verify', '--quiet', `${base}^{commit}`])
  } catch (error) {
    if (!(error instanceof GitError)) throw error
    throw new UserError(`Unexpected --base ${JSON.stringify(base)}, expected a git revision of ${root} (a branch, tag or commit)`)
  }
  const hashes = new Map<string, SliceAtBase>()
  await withProjectAt(repository, base, (then) => {
    for (const slice of then?.slices ?? []) {
      const {contractsHash, pins} = gateContext(then!, slice)
      hashes.set(slice.id, {contractsHash, pins})
    }
  })
  return hashes
}

/** The repository holding a project: its root, and the project folder from it (`''` at the root). */
interface Repository {
  root: string
  relative: string
}

async function repositoryOf(project: Project): Promise<Repository> {
  const dir = await realpath(project.dir)
  const root = (await runGit(dir, ['rev-parse', '--show-toplevel'])).trim()
  return {root, relative: path.relative(root, dir)}
}

/**
 * Hand `use` the project as git holds it at `rev`, and what gives a file of
 * it by its path from the repository's root: the repository's markdown and
 * settings there (the project folder, and what its tool reads beside it:
 * BMAD v4's `docs/stories`, a configured story folder), read into a
 * temporary folder as the project is read now. `null` when the folder is
 * not at `rev`, or does not read there.
 */
async function withProjectAt<Result>(
  {root, relative}: Repository,
  rev: string,
  use: (then: Project | null, fromRoot: (file: string) => string) => Result
): Promise<Result> {
  const held = (await runGit(root, ['ls-tree', '-r', '-z', '--name-only', rev])).split('\0').filter((file) => file !== '')
  const folder = relative === '' ? '' : `${relative.split(path.sep).join('/')}/`
  if (!held.some((file) => file.startsWith(folder))) return use(null, (file) => file)
  // The state of the slices is not what is compared: only what they are made of.
  const files = held.filter((file) => readableAtBase.test(file) && !file.startsWith(`${folder}tiers/`) && !/[\u0000-\u001f\u007f]/.test(file))
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'tiers-base-'))
  try {
    // One git call for every file.
    const output = await runGitBytes(root, ['cat-file', '--batch'], {input: files.map((file) => `${rev}:${file}\n`).join('')})
    for (const [index, blob] of readCatFileBatch(output, files.length).entries()) {
      if (blob === null) continue
      const target = path.join(scratch, files[index]!)
      await mkdir(path.dirname(target), {recursive: true})
      await writeFile(target, blob)
    }
    // A project that did not read at `rev` gave no approval to keep: every slice of it is the branch's.
    const then = await loadProject(path.join(scratch, relative), {cache: false}).catch(() => null)
    return use(then, (file) => path.relative(scratch, file).split(path.sep).join('/'))
  } finally {
    await rm(scratch, {recursive: true, force: true})
  }
}

/**
 * Whether the branch touched a tool's slice since `base`: a path git sees
 * changed (committed or not) in a folder named as the slice (a spec-kit
 * feature, an OpenSpec change, a Kiro feature, a GSD phase) or in a file of
 * its name (a BMAD story). A slice whose contracts were written before the
 * branch and whose work the branch did (a GSD summary, a story's ticked
 * tasks) is the branch's to have approved.
 */
function touchedBy(changed: readonly string[]): (id: string) => boolean {
  const names = new Set(
    changed.flatMap((file) => [
      ...file.split('/').slice(0, -1),
      file
        .split('/')
        .at(-1)!
        .replace(/\.[^.]+$/, '')
    ])
  )
  return (id) => names.has(id) || names.has(id.slice(id.indexOf('.') + 1))
}

/** The paths git sees changed since `base`, from the repository's root, committed or not. */
async function changedSince(dir: string, base: string): Promise<string[]> {
  const root = (await runGit(dir, ['rev-parse', '--show-toplevel'])).trim()
  return (await runGit(root, ['diff', '--name-only', '-z', '--no-renames', base, '--'])).split('\0').filter((file) => file !== '')
}
