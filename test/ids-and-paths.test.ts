/**
 * Slice and session ids end to end: `tiers` through the cli's `main`, run in
 * a temporary copy of the example project (`content/examples/greenlight-project`,
 * with `test.command` set to `true`), placed in `<temporary folder>/project`
 * so that a path that escapes `.greenlight/tiers/` still lands inside the
 * temporary folder, where the test lists it.
 *
 * Ids are checked where they enter (GRAPH.json keys, GRAPH.md headings, the
 * contracts’ Slice fields, arguments, the stop hook’s `session_id`); a bad
 * one is a one-line error naming where it came from, exit 2 for a project
 * file and 1 for an argument. Ids that are names of `Object.prototype`’s
 * properties (`__proto__`, `constructor`) work like any other.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {IdError, isSessionId, isSliceId, readSliceState, statePath, updateSliceState} from '@verification-tiers/runtime'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtBin, copyExample} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers} from './helpers/tiers-here.js'
import type {Run} from './helpers/tiers-bin.js'

const folders: string[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const nothingToCheck = 'tiers: warning: C-05 SpendColumnHeader: verify tier with no acceptance criteria or steps'

const sliceRule =
  'expected a slice id such as `S-01`: 1 to 100 letters, digits, `_`, `-` or `.`, not starting with `-` or `.`, and not `verification-status` or `stop-hook`'
const sessionRule = 'expected a session id such as a UUID: 1 to 128 letters, digits, `_`, `-`, `.` or `:`'

/** Run `tiers` in `cwd`, through the cli's `main`. */
const tiers = (cwd: string, ...args: string[]): Promise<Run> => runTiers(cwd, args)

/** A copy of the example in `<new temporary folder>/project`, where `tiers` runs. */
async function project(): Promise<string> {
  const temporary = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-ids-')))
  folders.push(temporary)
  const folder = path.join(temporary, 'project')
  await copyExample(path.join(folder, '.greenlight'))
  await edit(folder, 'config.json', (text) => text.replace('"npm test"', '"true"'))
  return folder
}

/** Path of a file in the copy’s `.greenlight`. */
const file = (folder: string, ...parts: string[]) => path.join(folder, '.greenlight', ...parts)

async function edit(folder: string, name: string, change: (text: string) => string): Promise<void> {
  const text = await fs.readFile(file(folder, name), 'utf8')
  const changed = change(text)
  expect(changed).not.toBe(text)
  await fs.writeFile(file(folder, name), changed)
}

/**
 * Every file and folder in the project’s temporary folder, relative to it,
 * but what is inside `.greenlight/tiers/` (where tiers may write).
 */
async function outsideState(folder: string): Promise<string[]> {
  const temporary = path.dirname(folder)
  const state = path.join('project', '.greenlight', 'tiers')
  const entries = (await fs.readdir(temporary, {recursive: true})).map(String)
  return entries.filter((entry) => entry !== state && !entry.startsWith(state + path.sep)).sort()
}

/** A failed run: `code`, nothing on stdout, exactly `tiers: <message>` on stderr. */
function expectError(run: Run, code: number, message: string): void {
  expect(run).toEqual({code, stdout: '', stderr: `tiers: ${message}\n`})
}

const json = (run: Run): any => JSON.parse(run.stdout)

describe.concurrent('slice ids cannot write outside `.greenlight/tiers/`', () => {
  it('refuses a GRAPH.json key `../../x` (exit 2, file, line and id), and writes nothing', async ({expect}) => {
    const folder = await project()
    await edit(folder, 'GRAPH.json', (text) => text.replace('"S-02": {', '"../../x": {'))
    const before = await outsideState(folder)
    expect(before).toContain(path.join('project', '.greenlight', 'GRAPH.json'))
    const message = `.greenlight/GRAPH.json:9: Unexpected slice id "../../x", ${sliceRule}`
    expectError(await tiers(folder, 'respond', '../../x', 'no'), 2, message)
    expectError(await tiers(folder, 'verify', '--all'), 2, message)
    expectError(await tiers(folder, 'respond', 'S-01', 'no'), 2, message)
    expectError(await tiers(folder, 'status'), 2, message)
    expect(await outsideState(folder)).toEqual(before)
  })

  it('refuses a contract’s `**Slice:** ../../../pwned` without GRAPH.json (exit 2, file, line and id), and writes nothing', async ({expect}) => {
    const folder = await project()
    await fs.rm(file(folder, 'GRAPH.json'))
    // C-01’s Slice field, on line 11.
    await edit(folder, 'CONTRACTS.md', (text) => text.replace('**Slice:** S-01', '**Slice:** ../../../pwned'))
    const before = await outsideState(folder)
    const message = `.greenlight/CONTRACTS.md:11: Unexpected slice id "../../../pwned", ${sliceRule}`
    expectError(await tiers(folder, 'respond', '../../../pwned', 'no'), 2, message)
    // Read again from the contracts cache: the same error.
    expectError(await tiers(folder, 'respond', '../../../pwned', 'no'), 2, message)
    expectError(await tiers(folder, 'status'), 2, message)
    expect(await outsideState(folder)).toEqual(before)
  })

  it('refuses a GRAPH.md heading whose id is too long (exit 2, file, line and id)', async ({expect}) => {
    const folder = await project()
    await fs.rm(file(folder, 'GRAPH.json'))
    const id = `S-${'0'.repeat(100)}1`
    await fs.writeFile(file(folder, 'GRAPH.md'), `# Slices\n\n## ${id}: Too Long\n\nContracts: C-01\n`)
    const before = await outsideState(folder)
    expectError(await tiers(folder, 'status'), 2, `.greenlight/GRAPH.md:3: Unexpected slice id "${id}", ${sliceRule}`)
    expectError(await tiers(folder, 'respond', id, 'no'), 2, `.greenlight/GRAPH.md:3: Unexpected slice id "${id}", ${sliceRule}`)
    expect(await outsideState(folder)).toEqual(before)
  })

  it('refuses a bad slice argument (exit 1, the id on one line), and writes nothing', async ({expect}) => {
    const folder = await project()
    const before = await outsideState(folder)
    expectError(await tiers(folder, 'respond', '../../x', 'no'), 1, `Unexpected slice id "../../x" in the arguments, ${sliceRule}`)
    expectError(await tiers(folder, 'checkpoint', 'S-01/../S-01'), 1, `Unexpected slice id "S-01/../S-01" in the arguments, ${sliceRule}`)
    expectError(await tiers(folder, 'status', 'S-01\nS-02'), 1, `Unexpected slice id "S-01\\nS-02" in the arguments, ${sliceRule}`)
    expectError(await tiers(folder, 'contracts', '--slice', '../S-01'), 1, `Unexpected slice id "../S-01" in the arguments, ${sliceRule}`)
    expectError(await tiers(folder, 'respond', 'stop-hook', 'no'), 1, `Unexpected slice id "stop-hook" in the arguments, ${sliceRule}`)
    // A good id that is no slice is the usual error; any case and spaces around still work.
    expectError(await tiers(folder, 'checkpoint', 'constructor'), 1, 'Unexpected slice `constructor`, expected one of: S-01, S-02')
    expect((await tiers(folder, 'respond', ' s-01 ', 'the grid is wrong')).code).toBe(0)
    expect(await outsideState(folder)).toEqual(before)
    expect(await fs.readdir(file(folder, 'tiers'))).toEqual(expect.arrayContaining(['S-01.json']))
  })
})

describe.concurrent('ids named like Object.prototype’s properties', () => {
  it('saves the verify run of slice `__proto__`, so its checkpoint opens', async ({expect}) => {
    const folder = await project()
    await edit(folder, 'GRAPH.json', (text) => text.replace('"S-02": {', '"__proto__": {'))
    const before = await outsideState(folder)
    const verify = await tiers(folder, 'verify', '__proto__')
    expect({code: verify.code, stderr: verify.stderr}).toEqual({code: 0, stderr: ''})
    const status = JSON.parse(await fs.readFile(file(folder, 'tiers', 'verification-status.json'), 'utf8'))
    expect(Object.keys(status.slices)).toEqual(['__proto__'])
    const checkpoint = await tiers(folder, 'checkpoint', '__proto__')
    expect({code: checkpoint.code, stderr: checkpoint.stderr}).toEqual({code: 0, stderr: `${nothingToCheck}\n`})
    expect(checkpoint.stdout.split('\n')[0]).toBe('ALL TESTS PASSING — Slice __proto__: Currency Formatting')
    expect((await tiers(folder, 'respond', '__proto__', 'the grid is wrong')).code).toBe(0)
    const state = JSON.parse(await fs.readFile(file(folder, 'tiers', '__proto__.json'), 'utf8'))
    expect({slice: state.slice, rejectionCount: state.rejectionCount}).toEqual({slice: '__proto__', rejectionCount: 1})
    expect((await tiers(folder, 'status')).stdout).toBe(
      'S-01 Campaign Cards: verify, 0/3 rejections, undecided, never verified, next: verify\n' +
        '__proto__ Currency Formatting: verify, 1/3 rejections, undecided, run passes, next: route; nothing to check in C-05 SpendColumnHeader (verify, no acceptance criteria or steps)\n'
    )
    expect(await outsideState(folder)).toEqual(before)
  })

  it('`tiers checkpoint constructor` says the verification is missing, then opens once verified', async ({expect}) => {
    const folder = await project()
    await edit(folder, 'GRAPH.json', (text) => text.replace('"S-02": {', '"constructor": {'))
    const before = await outsideState(folder)
    expect((await tiers(folder, 'verify', 'S-01')).code).toBe(0)
    const missing = await tiers(folder, 'checkpoint', 'constructor')
    expect({code: missing.code, stderr: missing.stderr}).toEqual({code: 1, stderr: `${nothingToCheck}\n`})
    expect(missing.stdout.split('\n')[0]).toBe('VERIFICATION MISSING — Slice constructor: Currency Formatting')
    expect(json(await tiers(folder, 'checkpoint', 'constructor', '--json')).evidence).toEqual({state: 'missing', run: null, failures: [], changed: []})
    expect((await tiers(folder, 'verify', 'constructor')).code).toBe(0)
    const open = await tiers(folder, 'checkpoint', 'constructor')
    expect(open.code).toBe(0)
    expect(open.stdout.split('\n')[0]).toBe('ALL TESTS PASSING — Slice constructor: Currency Formatting')
    expect(await outsideState(folder)).toEqual(before)
  })

  it('a stop-hook `session_id` of `__proto__` counts its blocks, so the safety valve opens; a bad one is refused (exit 1)', async ({expect}) => {
    const folder = await project()
    const before = await outsideState(folder)
    const hook = (session: string) =>
      runTiers(folder, ['stop-hook'], JSON.stringify({session_id: session, cwd: folder, hook_event_name: 'Stop', stop_hook_active: false}), {
        TIERS_MAX_BLOCKS: '2'
      })
    const counts = async () => {
      const saved = JSON.parse(await fs.readFile(file(folder, 'tiers', 'stop-hook.json'), 'utf8'))
      return Object.fromEntries(Object.entries(saved.sessions as Record<string, {blocks: number}>).map(([session, entry]) => [session, entry.blocks]))
    }
    for (const blocks of [1, 2]) {
      const run = await hook('__proto__')
      expect({code: run.code, stderr: run.stderr, decision: json(run).decision}).toEqual({code: 0, stderr: '', decision: 'block'})
      expect(await counts()).toEqual({['__proto__']: blocks})
    }
    // Another session named like a prototype property counts apart.
    expect(json(await hook('constructor')).decision).toBe('block')
    expect(await counts()).toEqual({['__proto__']: 2, constructor: 1})
    // The third stop of `__proto__` reaches TIERS_MAX_BLOCKS: the valve lets the agent stop.
    const valve = await hook('__proto__')
    expect(valve.code).toBe(0)
    expect(json(valve).decision).toBeUndefined()
    expect(json(valve).systemMessage).toMatch(/^WARNING: /)
    expect(await counts()).toEqual({['__proto__']: 0, constructor: 1})
    // A real session id as agents give them still works.
    expect(json(await hook('0f8fad5b-d9cb-469f-a165-70867728950e')).decision).toBe('block')
    const counted = await fs.readFile(file(folder, 'tiers', 'stop-hook.json'), 'utf8')
    expectError(await hook('../x'), 1, `Unexpected \`session_id\` "../x" in the stop hook’s input, ${sessionRule}`)
    expectError(await hook('a\nb'), 1, `Unexpected \`session_id\` "a\\nb" in the stop hook’s input, ${sessionRule}`)
    expect(await fs.readFile(file(folder, 'tiers', 'stop-hook.json'), 'utf8')).toBe(counted)
    expect(await outsideState(folder)).toEqual(before)
  })

  it('`tiers constructor` and other prototype names are unknown commands (exit 1, one line)', async ({expect}) => {
    const folder = await project()
    const before = await outsideState(folder)
    const known = 'checkpoint, respond, review, route, escalate, status, report, contracts, verify, ci, stop-hook, verdict, lint, init'
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expectError(await tiers(folder, name), 1, `Unexpected command \`${name}\`, expected one of: ${known}`)
    }
    expect(await outsideState(folder)).toEqual(before)
  })
})

describe.concurrent('the id patterns, and state paths as a second guard', () => {
  it('takes real slice and session ids, and no path', ({expect}) => {
    for (const id of ['S-01', 'S-1', 'S-23', 's-01', 'S-001', 'auth_flow', 'v1.2', '__proto__', 'constructor', 'x'.repeat(100)])
      expect([id, isSliceId(id)]).toEqual([id, true])
    for (const id of ['', '.', '..', '../x', 'a/b', 'a\\b', '.hidden', '-x', 'S 01', 'S-01\n', 'stop-hook', 'Verification-Status', 'x'.repeat(101)]) {
      expect([id, isSliceId(id)]).toEqual([id, false])
    }
    for (const id of ['0f8fad5b-d9cb-469f-a165-70867728950e', 'sess_01HZX3Q9', 'V1StGXR8_Z5jdHi6B-myT', '-leading-dash', 'default', '__proto__'])
      expect([id, isSessionId(id)]).toEqual([id, true])
    for (const id of ['', '../x', 'a/b', 'a b', 'a\nb', 'x'.repeat(129)]) expect([id, isSessionId(id)]).toEqual([id, false])
  })

  it('builds a state path only directly inside the state folder, and writes nothing for another', async ({expect}) => {
    const folder = await project()
    const dir = path.join(folder, '.greenlight')
    const before = await outsideState(folder)
    expect(statePath(dir, 'S-01')).toBe(path.join(dir, 'tiers', 'S-01.json'))
    for (const id of ['../x', '../../x', 'a/../../x', '..', 'stop-hook']) {
      expect(() => statePath(dir, id)).toThrow(IdError)
      expect(() => statePath(dir, id)).toThrow(`Unexpected slice id ${JSON.stringify(id)}, ${sliceRule}`)
      await expect(updateSliceState(dir, id, () => {})).rejects.toThrow(IdError)
      await expect(readSliceState(dir, id)).rejects.toThrow(IdError)
    }
    expect(await outsideState(folder)).toEqual(before)
    await expect(fs.access(file(folder, 'tiers'))).rejects.toThrow()
  })
})
