/**
 * The status file (`.greenlight/tiers/verification-status.json`): the latest
 * run of each slice, written under a lock; and `judgeFreshness`, which says
 * whether a run is still evidence for the checkpoint, and if not, why.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {changedFiles, fileDigests, judgeFreshness, maxKeptFiles, readVerificationStatus, recordRuns, statusPath, summarize} from '@verification-tiers/evidence'
import type {CheckResult, VerificationRun} from '@verification-tiers/evidence'
import {FileReadError} from '@verification-tiers/runtime'
import {afterAll, describe, expect, it} from 'vitest'

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

async function projectDir(): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-status-'))
  folders.push(folder)
  return path.join(folder, '.greenlight')
}

function check(id: string, status: CheckResult['status'], details = `${id} ${status}`): CheckResult {
  const manual = status === 'requires-human'
  return {
    criterion_id: id,
    contract: 'C-01',
    text: `Criterion ${id}`,
    level: 'behavioral',
    status,
    method: manual ? 'manual' : 'bash',
    command: manual ? null : `check ${id}`,
    exit_code: status === 'pass' ? 0 : status === 'fail' ? 1 : null,
    duration_ms: manual ? null : 5,
    details,
    output: null,
    category: status === 'fail' ? 'acceptance_criteria_unmet' : status === 'timeout' ? 'tool_failure' : null
  }
}

const headA = 'a'.repeat(40)
const headB = 'b'.repeat(40)

function makeRun(
  slice: string,
  results: CheckResult[],
  seen: {gitHead?: string | null; worktree?: string | null; contractsHash?: string} = {}
): VerificationRun {
  const summary = summarize(results)
  return {
    verification_run: {
      timestamp: '2025-01-01T10:00:00.000Z',
      slice,
      slice_name: `Slice ${slice}`,
      git_head: seen.gitHead === undefined ? headA : seen.gitHead,
      worktree: seen.worktree === undefined ? 'tree-1' : seen.worktree,
      contracts_hash: seen.contractsHash ?? 'sha256:contracts-1',
      timeout_seconds: 60
    },
    results,
    summary,
    all_automated_pass: summary.fail === 0 && summary.timeout === 0
  }
}

const now = {gitHead: headA, worktree: 'tree-1', contractsHash: 'sha256:contracts-1'}

describe('summarize', () => {
  it('counts each status; manual criteria count apart', () => {
    const results = [check('C-01.1', 'pass'), check('C-01.2', 'fail'), check('C-01.3', 'timeout'), check('C-01.4', 'requires-human'), check('C-01.5', 'pass')]
    expect(summarize(results)).toEqual({total: 5, pass: 2, fail: 1, timeout: 1, manual: 1})
    expect(summarize([])).toEqual({total: 0, pass: 0, fail: 0, timeout: 0, manual: 0})
  })
})

describe('judgeFreshness', () => {
  const passing = [check('C-01.1', 'pass'), check('C-01.2', 'requires-human')]

  it('is missing without a run', () => {
    expect(judgeFreshness(undefined, now)).toEqual({state: 'missing'})
  })

  it('is fresh when a passing run saw the same HEAD, worktree and contracts', () => {
    const run = makeRun('S-01', passing)
    expect(judgeFreshness(run, now)).toEqual({state: 'fresh', run})
  })

  it('is fresh outside git when the contracts are the same', () => {
    const run = makeRun('S-01', passing, {gitHead: null, worktree: null})
    expect(judgeFreshness(run, {gitHead: null, worktree: null, contractsHash: 'sha256:contracts-1'})).toEqual({state: 'fresh', run})
  })

  it('is failed with the failures and timeouts, whatever changed since', () => {
    const run = makeRun('S-01', [check('C-01.1', 'pass'), check('C-01.2', 'fail'), check('C-01.3', 'timeout'), check('C-01.4', 'requires-human')])
    const failures = [run.results[1], run.results[2]]
    expect(judgeFreshness(run, now)).toEqual({state: 'failed', run, failures})
    expect(judgeFreshness(run, {gitHead: headB, worktree: 'tree-2', contractsHash: 'sha256:contracts-2'})).toEqual({state: 'failed', run, failures})
  })

  it('is failed when the run says not all automated checks passed, even with no failed result', () => {
    const run = {...makeRun('S-01', passing), all_automated_pass: false}
    expect(judgeFreshness(run, now)).toEqual({state: 'failed', run, failures: []})
  })

  it('is stale when the run, or the sources now, could not be fingerprinted or changed while it ran', () => {
    const changedWhile = makeRun('S-01', passing)
    changedWhile.verification_run.unproven = 'the sources changed while the checks ran'
    expect(judgeFreshness(changedWhile, now)).toEqual({state: 'stale', run: changedWhile, changed: ['the sources changed while the checks ran']})
    const run = makeRun('S-01', passing)
    const unproven = 'the sources cannot be fingerprinted: `git diff` failed'
    expect(judgeFreshness(run, {...now, unproven})).toEqual({state: 'stale', run, changed: [unproven]})
  })

  it('is stale when the contracts changed', () => {
    const run = makeRun('S-01', passing)
    expect(judgeFreshness(run, {...now, contractsHash: 'sha256:contracts-2'})).toEqual({state: 'stale', run, changed: ['the contracts changed']})
  })

  it('is stale when HEAD moved, naming both commits shortly', () => {
    const run = makeRun('S-01', passing)
    expect(judgeFreshness(run, {...now, gitHead: headB})).toEqual({state: 'stale', run, changed: ['git HEAD moved (aaaaaaa → bbbbbbb)']})
  })

  it('names a missing HEAD `none`, before the first commit or outside git', () => {
    expect(judgeFreshness(makeRun('S-01', passing, {gitHead: null}), now)).toMatchObject({changed: ['git HEAD moved (none → aaaaaaa)']})
    expect(judgeFreshness(makeRun('S-01', passing), {...now, gitHead: null})).toMatchObject({changed: ['git HEAD moved (aaaaaaa → none)']})
  })

  it('is stale when the uncommitted changes differ on the same HEAD', () => {
    const run = makeRun('S-01', passing)
    expect(judgeFreshness(run, {...now, worktree: 'tree-2'})).toEqual({state: 'stale', run, changed: ['uncommitted changes differ']})
  })

  it('names the files that differ when it knows what the sources held beyond HEAD then and now', () => {
    const run = makeRun('S-01', passing)
    const then = {
      'src/a.ts': 'changed:1111111111111111',
      'notes.txt': 'untracked:2222222222222222',
      'old.log': 'untracked:3333333333333333',
      'src/b.ts': 'changed:4444444444444444'
    }
    // src/b.ts is back as HEAD has it: edited, not removed; old.log, which git does not track, is gone.
    const digests = {'src/a.ts': 'changed:5555555555555555', 'notes.txt': 'untracked:2222222222222222', 'new.txt': 'untracked:6666666666666666'}
    expect(judgeFreshness(run, {...now, worktree: 'tree-2', digests}, then)).toEqual({
      state: 'stale',
      run,
      changed: ['uncommitted changes differ (new.txt added, old.log removed, src/a.ts edited, src/b.ts edited)']
    })
    // Without either, or with nothing that differs (the test command changed), it says only that they differ.
    expect(judgeFreshness(run, {...now, worktree: 'tree-2', digests})).toMatchObject({changed: ['uncommitted changes differ']})
    expect(judgeFreshness(run, {...now, worktree: 'tree-2', digests: null}, then)).toMatchObject({changed: ['uncommitted changes differ']})
    expect(judgeFreshness(run, {...now, worktree: 'tree-2', digests: then}, then)).toMatchObject({changed: ['uncommitted changes differ']})
  })

  it('keeps what the sources held by kind and a short digest, up to `maxKeptFiles` files', () => {
    const files = new Map([
      ['src/a.ts', 'changed\0abc'],
      ['notes.txt', 'untracked\0def']
    ])
    const digests = fileDigests(files)
    expect(digests).toEqual({'src/a.ts': expect.stringMatching(/^changed:[\da-f]{16}$/), 'notes.txt': expect.stringMatching(/^untracked:[\da-f]{16}$/)})
    expect(changedFiles(digests!, fileDigests(new Map([...files, ['src/a.ts', 'changed\0abd']]))!)).toEqual(['src/a.ts edited'])
    expect(fileDigests(new Map(Array.from({length: maxKeptFiles + 1}, (_, index) => [`f${index}`, 'untracked\0x'])))).toBeNull()
  })

  it('names a moved HEAD alone when the worktree changed too, and the contracts first', () => {
    const run = makeRun('S-01', passing)
    expect(judgeFreshness(run, {gitHead: headB, worktree: 'tree-2', contractsHash: 'sha256:contracts-2'})).toEqual({
      state: 'stale',
      run,
      changed: ['the contracts changed', 'git HEAD moved (aaaaaaa → bbbbbbb)']
    })
    expect(judgeFreshness(run, {...now, worktree: 'tree-2', contractsHash: 'sha256:contracts-2'})).toMatchObject({
      changed: ['the contracts changed', 'uncommitted changes differ']
    })
  })
})

describe('the status file', () => {
  it('lives at `tiers/verification-status.json` in the project folder', () => {
    expect(statusPath('.greenlight')).toBe(path.join('.greenlight', 'tiers', 'verification-status.json'))
  })

  it('is null when no run was recorded', async () => {
    expect(await readVerificationStatus(await projectDir())).toBeNull()
  })

  it('keeps the latest run of each slice, as written', async () => {
    const dir = await projectDir()
    const first = makeRun('S-01', [check('C-01.1', 'fail')])
    const other = makeRun('S-02', [check('C-02.1', 'pass')])
    await recordRuns(dir, [first, other])
    const latest = makeRun('S-01', [check('C-01.1', 'pass')], {gitHead: headB})
    await recordRuns(dir, [latest])
    const expected = {version: 1, slices: {'S-01': latest, 'S-02': other}}
    expect(await readVerificationStatus(dir)).toEqual(expected)
    const text = await fs.readFile(statusPath(dir), 'utf8')
    expect(text).toBe(JSON.stringify(expected, null, 2) + '\n')
  })

  it('keeps what the sources held beyond HEAD by the runs’ worktree hash, while a run still has it', async () => {
    const dir = await projectDir()
    const held = {'src/a.ts': 'changed:1111111111111111'}
    await recordRuns(
      dir,
      [makeRun('S-01', [check('C-01.1', 'pass')], {worktree: 'tree-1'}), makeRun('S-02', [check('C-01.1', 'pass')], {worktree: 'tree-1'})],
      undefined,
      held
    )
    expect((await readVerificationStatus(dir))?.sources).toEqual({'tree-1': held})
    await recordRuns(dir, [makeRun('S-01', [check('C-01.1', 'pass')], {worktree: 'tree-2'})], undefined, {})
    expect((await readVerificationStatus(dir))?.sources).toEqual({'tree-1': held, 'tree-2': {}})
    // S-02 moves on too: nothing refers to tree-1 any more.
    await recordRuns(dir, [makeRun('S-02', [check('C-01.1', 'pass')], {worktree: 'tree-2'})], undefined, {})
    expect((await readVerificationStatus(dir))?.sources).toEqual({'tree-2': {}})
    // Runs that kept nothing (too many files) drop it all.
    await recordRuns(
      dir,
      [makeRun('S-01', [check('C-01.1', 'pass')], {worktree: 'tree-3'}), makeRun('S-02', [check('C-01.1', 'pass')], {worktree: 'tree-3'})],
      undefined,
      null
    )
    expect((await readVerificationStatus(dir))?.sources).toBeUndefined()
  })

  it('refuses `sources` that is not files and digests by worktree hash, naming the file', async () => {
    const dir = await projectDir()
    await recordRuns(dir, [makeRun('S-01', [check('C-01.1', 'pass')])])
    const file = statusPath(dir)
    const status = JSON.parse(await fs.readFile(file, 'utf8'))
    await fs.writeFile(file, JSON.stringify({...status, sources: {'tree-1': {'src/a.ts': 1}}}))
    await expect(readVerificationStatus(dir)).rejects.toThrow(`${file}: Unexpected \`sources\`, expected the files of each worktree hash, each with its digest`)
  })

  it('keeps every one of 10 runs recorded at once for different slices', async () => {
    const dir = await projectDir()
    const runs = Array.from({length: 10}, (_, index) => makeRun(`S-${String(index + 1).padStart(2, '0')}`, [check(`C-${index + 1}.1`, 'pass')]))
    await Promise.all(runs.map((run) => recordRuns(dir, [run])))
    const status = await readVerificationStatus(dir)
    expect(Object.keys(status!.slices).sort()).toEqual(runs.map((run) => run.verification_run.slice))
    for (const run of runs) expect(status!.slices[run.verification_run.slice]).toEqual(run)
    // No lock or temporary file is left behind.
    expect(await fs.readdir(path.dirname(statusPath(dir)))).toEqual(['verification-status.json'])
  })

  it.each([
    ['{"version": 1, "slices": {', /^[^\n]*verification-status\.json:1:27: Unexpected end of file, expected a property name in double quotes or `}`$/],
    ['[]', /: Unexpected content, expected a verification status with `version: 1` and `slices`$/],
    ['{"version": 2, "slices": {}}', /: Unexpected content, expected a verification status with `version: 1` and `slices`$/],
    ['{"version": 1, "slices": {"S-01": {"results": []}}}', /: Unexpected run for `S-01`, expected `results` and `all_automated_pass`$/]
  ])('refuses the broken file %j, naming it, and never overwrites it', async (text, message) => {
    const dir = await projectDir()
    await fs.mkdir(path.dirname(statusPath(dir)), {recursive: true})
    await fs.writeFile(statusPath(dir), text)
    const error = await readVerificationStatus(dir).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(FileReadError)
    expect((error as Error).message.startsWith(`${statusPath(dir)}:`)).toBe(true)
    expect((error as Error).message).toMatch(message)
    expect((error as Error).message).not.toContain('\n')
    await expect(recordRuns(dir, [makeRun('S-01', [])])).rejects.toBeInstanceOf(FileReadError)
    expect(await fs.readFile(statusPath(dir), 'utf8')).toBe(text)
  })
})
