/**
 * A verify slice the branch archives leaves the merge held, whatever the
 * branch's history looks like: a property over git histories. An OpenSpec
 * change, on `main` from the start or proposed on the branch, is archived
 * (moved under `changes/archive/`, as `openspec archive` does) after any
 * sequence of commits on the branch, edits of the change, commits on
 * `main`, merges of `main` into the branch, and side branches merged with
 * `--no-ff`; the archive is committed on the branch, on a side branch
 * merged into it, or left uncommitted. No person approves it. Then `tiers
 * ci --base main` holds the merge naming the change, on the branch and on
 * the merge commit CI checks out for a pull request (`main` first, the
 * branch merged into it).
 *
 * Out of scope: a change proposed and archived in one commit (a squash):
 * no commit has it where the gate reads changes.
 *
 * `FUZZ_SCALE` runs more histories, `FUZZ_SEED` others. Run `npx tsc -b`
 * first: the cli's `main` is loaded from `packages/cli/dist`.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import {afterAll, describe, expect, it} from 'vitest'
import {git} from './helpers/tiers-bin.js'
import {runTiersPiped} from './helpers/tiers-here.js'

const scale = Number(process.env.FUZZ_SCALE ?? 1)
const baseSeed = process.env.FUZZ_SEED === undefined ? 42 : Number(process.env.FUZZ_SEED)
const runs = (count: number) => Math.max(1, Math.round(count * scale))

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const change = 'openspec/changes/add-fines'
const spec = `${change}/specs/lending/spec.md`

const deltaSpec = (then: string) =>
  `## ADDED Requirements\n\n### Requirement: Fines\nThe system SHALL show a fine for a late loan.\n\n#### Scenario: Late\n- **WHEN** a loan is a day late\n- **THEN** ${then}\n`

type Step =
  | {kind: 'branch-commit'}
  | {kind: 'branch-deletes-a-file'}
  | {kind: 'change-edited'; then: string}
  | {kind: 'main-commit'}
  | {kind: 'main-merged'}
  | {kind: 'side-branch-merged'}

type Archive = 'on-the-branch' | 'on-a-side-branch' | 'uncommitted'

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.constant({kind: 'branch-commit' as const}),
  fc.constant({kind: 'branch-deletes-a-file' as const}),
  fc.constantFrom('a fine is shown', 'a fine may be shown', 'nothing happens').map((then) => ({kind: 'change-edited' as const, then})),
  fc.constant({kind: 'main-commit' as const}),
  fc.constant({kind: 'main-merged' as const}),
  fc.constant({kind: 'side-branch-merged' as const})
)

let counter = 0

/** Write `file` with `text` in `root` and commit everything. */
async function commitFile(root: string, file: string, text: string, message: string): Promise<void> {
  await fs.mkdir(path.dirname(path.join(root, file)), {recursive: true})
  await fs.writeFile(path.join(root, file), text)
  await git(root, 'add', '-A')
  await git(root, 'commit', '-q', '--allow-empty', '-m', message)
}

/** A repository whose `main` holds an OpenSpec project (and the change, with `onMain`), checked out on `feature`. */
async function repository(onMain: boolean): Promise<string> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-gone-')))
  folders.push(root)
  await fs.mkdir(path.join(root, 'openspec'))
  await fs.writeFile(path.join(root, 'openspec', 'project.md'), '# Lending\n')
  await fs.writeFile(path.join(root, 'openspec', 'tiers.json'), '{"test": {"command": "true"}}\n')
  await fs.writeFile(path.join(root, 'notes.md'), 'Notes\n')
  if (onMain) {
    await fs.mkdir(path.dirname(path.join(root, spec)), {recursive: true})
    await fs.writeFile(path.join(root, spec), deltaSpec('a fine is shown'))
  }
  await git(root, 'init', '-q', '-b', 'main')
  await git(root, 'add', '-A')
  await git(root, 'commit', '-q', '-m', 'Project')
  await git(root, 'checkout', '-q', '-b', 'feature')
  if (!onMain) await commitFile(root, spec, deltaSpec('a fine is shown'), 'Propose fines')
  return root
}

async function take(root: string, step: Step): Promise<void> {
  counter++
  switch (step.kind) {
    case 'branch-commit':
      return commitFile(root, 'openspec/project.md', `# Lending ${counter}\n`, 'Branch work')
    case 'branch-deletes-a-file':
      await commitFile(root, `openspec/notes-${counter}.md`, 'A note\n', 'A note')
      await git(root, 'rm', '-q', `openspec/notes-${counter}.md`)
      await git(root, 'commit', '-q', '-m', 'No note')
      return
    case 'change-edited':
      return commitFile(root, spec, deltaSpec(step.then), 'The change edited')
    case 'main-commit':
      await git(root, 'checkout', '-q', 'main')
      await commitFile(root, 'notes.md', `Notes ${counter}\n`, 'Main work')
      await git(root, 'checkout', '-q', 'feature')
      return
    case 'main-merged':
      await git(root, 'merge', '-q', '--no-edit', 'main')
      return
    case 'side-branch-merged':
      await git(root, 'checkout', '-q', '-b', `side-${counter}`)
      await commitFile(root, 'openspec/project.md', `# Lending, side ${counter}\n`, 'Side work')
      await git(root, 'checkout', '-q', 'feature')
      await git(root, 'merge', '-q', '--no-ff', '--no-edit', `side-${counter}`)
      return
  }
}

async function archive(root: string, how: Archive): Promise<void> {
  const to = 'openspec/changes/archive/2026-01-02-add-fines'
  await fs.mkdir(path.join(root, 'openspec/changes/archive'), {recursive: true})
  if (how === 'uncommitted') return fs.rename(path.join(root, change), path.join(root, to))
  if (how === 'on-a-side-branch') await git(root, 'checkout', '-q', '-b', 'archive')
  await git(root, 'mv', change, to)
  await git(root, 'commit', '-q', '-m', 'Archive fines')
  if (how === 'on-a-side-branch') {
    await git(root, 'checkout', '-q', 'feature')
    await git(root, 'merge', '-q', '--no-ff', '--no-edit', 'archive')
  }
}

/** What `tiers ci --base main` says where `root` stands. */
async function merge(root: string): Promise<{code: number | null; held: string[]; said: string}> {
  const run = await runTiersPiped(root, ['ci', '--base', 'main', '--json'])
  const said = run.stdout + run.stderr
  if (run.code !== 0 && run.code !== 1) return {code: run.code, held: [], said}
  return {code: run.code, held: (JSON.parse(run.stdout) as {holds: Array<{slice: string | null}>}).holds.map((hold) => hold.slice ?? ''), said}
}

describe('a verify slice the branch archives', () => {
  it('holds the merge on the branch and on the pull request’s merge commit, whatever the history', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.array(stepArb, {maxLength: 5}),
        fc.constantFrom<Archive>('on-the-branch', 'on-a-side-branch', 'uncommitted'),
        async (onMain, steps, how) => {
          const root = await repository(onMain)
          for (const step of steps) await take(root, step)
          await archive(root, how)
          const onBranch = await merge(root)
          expect([onBranch.code, onBranch.held], onBranch.said).toEqual([1, expect.arrayContaining(['add-fines'])])
          if (how !== 'uncommitted') {
            await git(root, 'checkout', '-q', '--detach', 'main')
            await git(root, 'merge', '-q', '--no-ff', '--no-edit', 'feature')
            const onMerge = await merge(root)
            expect([onMerge.code, onMerge.held], onMerge.said).toEqual([1, expect.arrayContaining(['add-fines'])])
          }
          await fs.rm(root, {recursive: true, force: true})
        }
      ),
      {seed: baseSeed, numRuns: runs(12), endOnFailure: true}
    )
  }, 120_000)
})
