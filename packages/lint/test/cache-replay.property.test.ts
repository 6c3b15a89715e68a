/**
 * The lint cache never hides a change: after any edits of a folder (files
 * added, removed, renamed or edited, folders made, ignore files written),
 * a run with the cache reports exactly what a run without it reports. The
 * warm path that replays a whole run without the engine is what is at stake:
 * a change it missed would be a file skipped in silence.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import {afterAll, describe, expect, it} from 'vitest'
import {lintFiles} from '@verification-tiers/lint'
import type {LintSettings} from '@verification-tiers/lint'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const noSpecifics = (id: number) => `### C-${id}: Widget${id}\n\n**Verification:** verify\n`
const vague = (id: number) => `### C-${id}: Gadget${id}\n\n**Verification:** verify\n\n**Acceptance Criteria:**\n\n- it works as expected\n`
const clean = (id: number) => `### C-${id}: Gizmo${id}\n\n**Verification:** auto\n`
// Two tiers and a field given twice: messages with a `cause`, which the cache keeps too.
const twice = (id: number) => `### C-${id}: Twin${id}\n\n**Verification:** verify\n\n**Verification:** auto\n`

const names = ['a.md', 'b.md', 'sub/c.md', 'sub/deep/d.md', 'e.markdown', 'notes.txt']

type Edit =
  | {kind: 'write'; name: string; text: number; id: number}
  | {kind: 'remove'; name: string}
  | {kind: 'rename'; from: string; to: string}
  | {kind: 'ignore'; folder: '' | 'sub'; pattern: string}

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({kind: fc.constant('write' as const), name: fc.constantFrom(...names), text: fc.integer({min: 0, max: 3}), id: fc.integer({min: 1, max: 99})}),
  fc.record({kind: fc.constant('remove' as const), name: fc.constantFrom(...names)}),
  fc.record({kind: fc.constant('rename' as const), from: fc.constantFrom(...names), to: fc.constantFrom(...names)}),
  fc.record({kind: fc.constant('ignore' as const), folder: fc.constantFrom('' as const, 'sub' as const), pattern: fc.constantFrom('b.md', 'deep', '*.markdown', 'c.md', '')})
)

async function apply(folder: string, change: Edit): Promise<void> {
  const at = (name: string) => path.join(folder, name)
  switch (change.kind) {
    case 'write':
      await fs.mkdir(path.dirname(at(change.name)), {recursive: true})
      await fs.writeFile(at(change.name), [noSpecifics, vague, clean, twice][change.text]!(change.id))
      return
    case 'remove':
      await fs.rm(at(change.name), {force: true})
      return
    case 'rename':
      await fs.mkdir(path.dirname(at(change.to)), {recursive: true})
      await fs.rename(at(change.from), at(change.to)).catch(() => {})
      return
    case 'ignore':
      await fs.mkdir(path.join(folder, change.folder), {recursive: true})
      await fs.writeFile(path.join(folder, change.folder, '.remarkignore'), change.pattern + '\n')
  }
}

function settingsFor(cwd: string, cache: boolean): LintSettings {
  return {
    cwd,
    files: ['.'],
    frail: false,
    quiet: false,
    silent: false,
    color: false,
    detectConfig: false,
    detectIgnore: true,
    ignorePatterns: [],
    format: 'stylish',
    fix: false,
    fixDryRun: false,
    cache: cache ? '.cache/lint' : undefined,
    baseline: false
  }
}

/** The report of the folder, with the cache or without. */
async function report(cwd: string, cache: boolean): Promise<string> {
  return (await lintFiles(settingsFor(cwd, cache))).report.text
}

describe('the lint cache', () => {
  it('reports after any edits exactly what a run without it reports', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, {minLength: 1, maxLength: 4}), fc.array(edit, {minLength: 1, maxLength: 4}), async (before, after) => {
        const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-cache-property-')))
        folders.push(folder)
        await fs.writeFile(path.join(folder, 'a.md'), vague(1))
        await fs.writeFile(path.join(folder, 'b.md'), twice(2))
        for (const change of before) await apply(folder, change)
        // Twice: the second run is the warm one that remembers the files found.
        await report(folder, true)
        expect(await report(folder, true)).toBe(await report(folder, false))
        for (const change of after) await apply(folder, change)
        expect(await report(folder, true)).toBe(await report(folder, false))
      }),
      {numRuns: 12}
    )
  })
})
