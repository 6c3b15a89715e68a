/**
 * A slice’s history against the one git holds: what the state files
 * (`<project>/tiers/<slice>.json`) lost of the committed ones, and the state
 * files no slice has (a slice renamed without its file).
 */
import path from 'node:path'
import type {Project} from '@verification-tiers/project'
import {
  emptySliceState,
  FileReadError,
  historyLoss,
  inputLimits,
  keptSliceIds,
  parseSliceState,
  readInputFile,
  stateFolder,
  statePath
} from '@verification-tiers/runtime'
import type {EntryCounts, SliceState} from '@verification-tiers/runtime'
import {gitFolderAbove} from './fingerprint.js'
import {GitError, readCatFileBatch, runGitBytes} from './git.js'

/** A slice whose state file lost committed history, or what kept the history from being compared (`slice` `null`): either holds the gate. */
export interface HistoryHold {
  slice: string | null
  line: string
}

/** What the history of a project’s state files says. */
export interface HistoryJudgement {
  holds: HistoryHold[]
  /** State files of no slice, one line each: named, never held. */
  orphans: string[]
}

/**
 * Compare each slice’s state file with the one committed at `revision`
 * (`HEAD`, or the base of a branch): every committed answer, rejection and
 * escalation choice must still be there, in order (`historyLoss`). A state
 * file deleted or cut short holds, named; outside git, before the first
 * commit, or for a file git does not hold at `revision`, there is nothing to
 * compare. A git error holds too: nothing then proves that no answer was
 * lost. State files that no slice of the project has are named with what
 * they hold.
 */
export async function judgeHistory(project: Project, revision = 'HEAD'): Promise<HistoryJudgement> {
  const ids = [...new Set(project.slices.map((slice) => slice.id))]
  const holds: HistoryHold[] = []
  let committed: Map<string, string> | null = null
  try {
    committed = await committedTexts(project.dir, ids, revision)
  } catch (error) {
    if (!(error instanceof GitError)) throw error
    const line = `${path.join(project.dir, stateFolder)}: Unexpected git error (${error.message}), expected the state files committed at ${revision}: without them nothing proves that no answer was lost`
    holds.push({slice: null, line})
  }
  for (const [id, text] of committed ?? []) {
    const file = statePath(project.dir, id)
    // A committed file that is no state proves nothing lost; one that cannot be read now is said by whatever reads it.
    const then = readQuietly(file, text, id)
    const now = await readInputFile(file, {limit: inputLimits.json}).then(
      (current) => (current === undefined ? emptySliceState(id) : readQuietly(file, current, id)),
      (error: unknown) => (error instanceof FileReadError ? null : Promise.reject(error))
    )
    const loss = then && now && historyLoss(then, now)
    if (!loss) continue
    const what = [hasAny(loss.lost) ? `lost ${countEntries(loss.lost)}` : null, hasAny(loss.changed) ? `changed ${countEntries(loss.changed)}` : null]
      .filter(Boolean)
      .join(', and ')
    holds.push({
      slice: id,
      line: `${file}: Unexpected history of slice ${id}: ${what} compared with the committed one (${revision}), expected every committed answer, rejection and escalation choice still there, in order: restore them (\`git checkout ${revision} -- ${file}\`)`
    })
  }
  return {holds, orphans: await orphanedStates(project.dir, new Set(ids))}
}

/** What holds the slice `id` of `judgeHistory`’s findings against `HEAD`: its own lost history, and what kept the history from being compared. */
export async function sliceHistoryHolds(project: Project, id: string): Promise<string[]> {
  return (await judgeHistory(project)).holds.filter((hold) => hold.slice === id || hold.slice === null).map((hold) => hold.line)
}

/**
 * Each state file no slice has, as a line naming it with what it holds:
 * `…/tiers/S-01.json holds the history of S-01 (3 rejections and 3 answers), which no slice has: …`.
 */
async function orphanedStates(dir: string, ids: ReadonlySet<string>): Promise<string[]> {
  const lines: string[] = []
  for (const id of await keptSliceIds(dir)) {
    if (ids.has(id)) continue
    const file = statePath(dir, id)
    const text = await readInputFile(file, {limit: inputLimits.json}).catch(() => undefined)
    const state = text === undefined ? null : readQuietly(file, text, id)
    const held = state
      ? ` (${countEntries({rejections: state.rejections.length, answers: state.answers.length, escalations: state.escalations.length}) || 'no answers'})`
      : ''
    lines.push(
      `${file} holds the history of ${id}${held}, which no slice has: if the slice was renamed, rename the file to its new id (and its \`slice\` with it)`
    )
  }
  return lines
}

/** A state file’s entries as written (its history is compared, not checked), or `null` when it is no slice state. */
function readQuietly(file: string, text: string, id: string): SliceState | null {
  try {
    return parseSliceState(file, text, id, 'none')
  } catch (error) {
    if (error instanceof FileReadError) return null
    throw error
  }
}

/** The text of each state file of `ids` that git holds at `revision`, from the project folder `dir`; `null` outside git or before the first commit. */
async function committedTexts(dir: string, ids: readonly string[], revision: string): Promise<Map<string, string> | null> {
  const texts = new Map<string, string>()
  // Outside git, git is not asked: there is no repository to ask.
  if (ids.length === 0 || (await gitFolderAbove(dir)) === null) return null
  if (/[\u0000-\u001f\u007f]/.test(revision)) throw new GitError(['cat-file'], `cannot take the revision ${JSON.stringify(revision)}`)
  // One call for every file: `<revision>:./<path>` is from the folder git runs in.
  const asked = [`${revision}^{commit}`, ...ids.map((id) => `${revision}:./${stateFolder}/${id}.json`)]
  const output = await runGitBytes(dir, ['cat-file', '--batch'], {input: asked.map((line) => `${line}\n`).join('')})
  const [commit, ...files] = readCatFileBatch(output, asked.length)
  if (commit === null) {
    if (revision === 'HEAD') return null
    throw new GitError(['cat-file'], `found no commit ${JSON.stringify(revision)}`)
  }
  for (const [index, blob] of files.entries()) {
    if (blob && blob.length <= inputLimits.json) texts.set(ids[index], blob.toString('utf8'))
  }
  return texts
}

const hasAny = (counts: EntryCounts) => counts.answers + counts.rejections + counts.escalations > 0

/** `3 rejections and 1 answer`: the kinds there are, rejections first; empty when none. */
function countEntries(counts: EntryCounts): string {
  const named = (
    [
      [counts.rejections, 'rejection'],
      [counts.answers, 'answer'],
      [counts.escalations, 'escalation choice']
    ] as const
  )
    .filter(([count]) => count > 0)
    .map(([count, noun]) => `${count} ${noun}${count === 1 ? '' : 's'}`)
  return named.length > 1 ? `${named.slice(0, -1).join(', ')} and ${named.at(-1)}` : (named[0] ?? '')
}
