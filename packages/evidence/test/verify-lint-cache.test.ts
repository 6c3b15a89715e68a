/**
 * `tiers verify` keeps the lint messages of each contract file in the state
 * folder (`.verify-lint-cache`) and replays them while the file and its
 * environment are unchanged: a second verify lints nothing, an edit of one
 * file lints that file alone, and the results are those of a run without
 * the cache. A cache that cannot be read is rebuilt, one behind a link is
 * never written through, and `TIERS_NO_CACHE` turns it off.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {verifySlices} from '@verification-tiers/evidence'
import type {VerificationRun} from '@verification-tiers/evidence'
import {lintTexts} from '@verification-tiers/lint'
import {lintedTextsOf} from '@verification-tiers/lint/text-cache'
import type {FileText} from '@verification-tiers/lint/text-cache'
import {loadProject} from '@verification-tiers/project'
import {afterAll, afterEach, describe, expect, it, vi} from 'vitest'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})
afterEach(() => {
  vi.unstubAllEnvs()
})

// C-01 (in CONTRACTS.md) has a lint error, a tier that is none, and a warning; C-02 (auto, its own file) has neither.
const ledger = `## S-01: One

### C-01: Badge

**Slice:** S-01
**Verification:** maybe
**Acceptance Criteria:**
- It shows

### C-03: Label

**Slice:** S-01
**Verification:** verify
`
const second = (criterion: string) => `## S-02: Two

### C-02: Total

**Slice:** S-02
**Verification:** auto
**Acceptance Criteria:**
- ${criterion} -- verified by: \`true\`
`

async function project(): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-verify-cache-')))
  folders.push(folder)
  await fs.mkdir(path.join(folder, '.greenlight', 'contracts'), {recursive: true})
  await fs.writeFile(path.join(folder, '.greenlight', 'CONTRACTS.md'), ledger)
  await fs.writeFile(path.join(folder, '.greenlight', 'contracts', 'C-02.md'), second('The total is shown'))
  return path.join(folder, '.greenlight')
}

/** A lint in this process that records the files it is given, by name. */
function countingLint() {
  const calls: string[][] = []
  const lintFiles = async (files: readonly FileText[]) => {
    calls.push(files.map((file) => path.basename(file.path)))
    return new Map(lintedTextsOf(await lintTexts(files)))
  }
  return {calls, lintFiles}
}

/** What a run says, without its times. */
const results = (runs: readonly VerificationRun[]) =>
  runs.map((run) => run.results.map(({duration_ms: _, details, ...rest}) => ({...rest, details: details?.replace(/ in [\d.]+ s$/, '')})))

async function verify(dir: string, lintFiles: ReturnType<typeof countingLint>['lintFiles']): Promise<VerificationRun[]> {
  const project = await loadProject(dir)
  return verifySlices(project, project.slices, {lintFiles})
}

const cacheFile = (dir: string) => path.join(dir, 'tiers', '.verify-lint-cache')

describe('tiers verify and its lint cache', () => {
  it('lints nothing on a second run of an unchanged project, and only the file edited after an edit', async () => {
    const dir = await project()
    const {calls, lintFiles} = countingLint()
    const first = await verify(dir, lintFiles)
    expect(calls).toEqual([['CONTRACTS.md', 'C-02.md']])
    expect(first.map((run) => run.results.find((result) => result.criterion_id === 'contracts')?.status)).toEqual(['fail', 'pass'])
    await expect(fs.stat(cacheFile(dir))).resolves.toBeTruthy()
    const again = await verify(dir, lintFiles)
    expect(calls).toHaveLength(1)
    expect(results(again)).toEqual(results(first))
    await fs.writeFile(path.join(dir, 'contracts', 'C-02.md'), second('The total is shown in euros'))
    const edited = await verify(dir, lintFiles)
    expect(calls).toEqual([['CONTRACTS.md', 'C-02.md'], ['C-02.md']])
    const uncached = countingLint()
    vi.stubEnv('TIERS_NO_CACHE', '1')
    expect(results(await verify(dir, uncached.lintFiles))).toEqual(results(edited))
  })

  it('with TIERS_NO_CACHE set, even empty, lints every file each run and writes no cache', async () => {
    const dir = await project()
    vi.stubEnv('TIERS_NO_CACHE', '')
    const {calls, lintFiles} = countingLint()
    await verify(dir, lintFiles)
    await verify(dir, lintFiles)
    expect(calls).toEqual([
      ['CONTRACTS.md', 'C-02.md'],
      ['CONTRACTS.md', 'C-02.md']
    ])
    await expect(fs.stat(cacheFile(dir))).rejects.toThrow()
  })

  it('rebuilds a cache that cannot be read, or is not what it writes, and reports as without it', async () => {
    const dir = await project()
    const {calls, lintFiles} = countingLint()
    const first = await verify(dir, lintFiles)
    for (const text of ['{"version": 2, "entries": ', '{"version": 1, "entries": {}}\n', '{"version": 2, "entries": {"/a.md": {"content": "x"}}}\n']) {
      await fs.writeFile(cacheFile(dir), text)
      expect(results(await verify(dir, lintFiles))).toEqual(results(first))
      // Rebuilt: the next run lints nothing.
      const count = calls.length
      expect(results(await verify(dir, lintFiles))).toEqual(results(first))
      expect(calls).toHaveLength(count)
    }
    expect(calls).toHaveLength(4)
  })

  it('never writes the cache through a symbolic link, and verifies all the same', async () => {
    const dir = await project()
    const elsewhere = path.join(path.dirname(dir), 'elsewhere.json')
    await fs.writeFile(elsewhere, 'left alone\n')
    await fs.mkdir(path.join(dir, 'tiers'))
    await fs.symlink(elsewhere, cacheFile(dir))
    const {calls, lintFiles} = countingLint()
    const first = await verify(dir, lintFiles)
    const again = await verify(dir, lintFiles)
    expect(results(again)).toEqual(results(first))
    expect(calls).toHaveLength(2)
    expect(await fs.readFile(elsewhere, 'utf8')).toBe('left alone\n')
    expect((await fs.lstat(cacheFile(dir))).isSymbolicLink()).toBe(true)
  })
})
