/**
 * A git repository holding a project of two verify slices, S-01 and S-02,
 * for the tests of `tiers ci` and of a slice's history against git.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {expect} from 'vitest'
import {git} from './tiers-bin.js'
import {runTiersHere} from './tiers-here.js'

/** The project's contracts: S-01 greets, S-02 says `farewell`; `first` is the first slice's id. */
export const twoSlices = (farewell: string, first = 'S-01') => `# Contracts

### C-01: Greeting

**Slice:** ${first}
**Verification:** verify
**Acceptance Criteria:**
- The greeting reads well to a person

### C-02: Farewell

**Slice:** S-02
**Verification:** verify
**Acceptance Criteria:**
- ${farewell}
`

/** A repository on `main` holding a project of two verify slices, neither approved; `folders` collects it for removal. */
export async function twoSliceRepository(folders: string[], prefix: string): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)))
  folders.push(folder)
  await fs.mkdir(path.join(folder, '.greenlight'))
  await fs.writeFile(path.join(folder, '.greenlight', 'CONTRACTS.md'), twoSlices('The farewell reads well to a person'))
  await fs.writeFile(path.join(folder, '.greenlight', 'config.json'), '{"test": {"command": "true"}}\n')
  await git(folder, 'init', '-q', '-b', 'main')
  await git(folder, 'add', '-A')
  await git(folder, 'commit', '-q', '-m', 'Two slices')
  return folder
}

/** The state file of `slice` in the repository, whose project folder is `dir`. */
export const sliceStateFile = (folder: string, slice: string, dir = '.greenlight') => path.join(folder, dir, 'tiers', `${slice}.json`)

/** Commit the state file of `slice` (of the project folder `dir`). */
export async function commitState(folder: string, slice: string, message: string, dir = '.greenlight'): Promise<void> {
  await git(folder, 'add', sliceStateFile(folder, slice, dir))
  await git(folder, 'commit', '-q', '-m', message)
}

/** A person's approval of `slice` (of the project folder `dir`) after a passing run, committed with its state. */
export async function approveAndCommit(folder: string, slice: string, dir = '.greenlight'): Promise<void> {
  expect((await runTiersHere(folder, ['verify', slice])).code).toBe(0)
  expect((await runTiersHere(folder, ['respond', slice, 'yes'])).code).toBe(0)
  await commitState(folder, slice, `Approve ${slice}`, dir)
}
