/**
 * The lint cache never hides a change: after any edits of a folder (files
 * added, removed, renamed or edited, folders made, ignore files written, the
 * baseline written or removed) and of the settings, a run with the cache
 * reports exactly what a run without it reports, and an output the cache
 * prints again (`replayLintOutput`) is exactly the output a run without it
 * makes. The warm paths that answer a run without the engine are what is at
 * stake: a change they missed would be a file skipped in silence.
 */
import {writeFileSync} from 'node:fs'
import fs from 'node:fs/promises'
import {createRequire} from 'node:module'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import {afterAll, describe, expect, it, onTestFinished, vi} from 'vitest'
import {formatLintBaseline, lintBaselineOf, lintFiles, replayLintOutput} from '@verification-tiers/lint'
import type {LintOutput, LintResult, LintSettings} from '@verification-tiers/lint'
import {cachedSettings, expectCacheAgrees} from './cache-property.js'

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
  | {kind: 'baseline'; accept: 'now' | 'nothing' | 'removed'}
  | {kind: 'config'; folder: '' | 'sub'; plugins: 'none' | 'preset' | 'removed'}

const texts = {text: fc.integer({min: 0, max: 3}), id: fc.integer({min: 1, max: 99})}
const baselineEdit = fc.record({kind: fc.constant('baseline' as const), accept: fc.constantFrom('now' as const, 'nothing' as const, 'removed' as const)})
const configEdit = fc.record({
  kind: fc.constant('config' as const),
  folder: fc.constantFrom('' as const, 'sub' as const),
  plugins: fc.constantFrom('none' as const, 'preset' as const, 'removed' as const)
})

// The preset by its file: a configuration in a temporary folder cannot name it as a package.
const presetFile = createRequire(import.meta.url).resolve('remark-preset-lint-verification-tiers')

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({kind: fc.constant('write' as const), name: fc.constantFrom(...names), ...texts}),
  fc.record({kind: fc.constant('remove' as const), name: fc.constantFrom(...names)}),
  fc.record({kind: fc.constant('rename' as const), from: fc.constantFrom(...names), to: fc.constantFrom(...names)}),
  fc.record({
    kind: fc.constant('ignore' as const),
    folder: fc.constantFrom('' as const, 'sub' as const),
    pattern: fc.constantFrom('b.md', 'deep', '*.markdown', 'c.md', '')
  }),
  baselineEdit,
  configEdit
)

/**
 * Edits that leave the names in the folders as they are — a file’s text, the
 * baseline’s, a configuration’s, a file outside the paths linted — weigh
 * more: a stale output is what would go unnoticed then.
 */
const quietEdit: fc.Arbitrary<Edit> = fc.oneof(
  {weight: 3, arbitrary: fc.record({kind: fc.constant('write' as const), name: fc.constantFrom('a.md', 'sub/c.md'), ...texts})},
  {weight: 2, arbitrary: baselineEdit},
  {weight: 1, arbitrary: configEdit},
  {weight: 1, arbitrary: fc.record({kind: fc.constant('remove' as const), name: fc.constant('a.md')})},
  {weight: 2, arbitrary: edit}
)

const baselineName = 'tiers-lint-baseline.json'

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
      return
    case 'baseline':
      if (change.accept === 'removed') await fs.rm(at(baselineName), {force: true})
      else if (change.accept === 'nothing') await fs.writeFile(at(baselineName), '{}\n')
      // The warnings of every file now: the files edited later, or left out of a run, make some of them unused.
      else
        await fs.writeFile(
          at(baselineName),
          formatLintBaseline(lintBaselineOf((await lintFiles({...settingsFor(folder, false), detectIgnore: false})).files, folder))
        )
      return
    case 'config': {
      // Where a configuration is found (with `detectConfig`), its plugins run below it: none, or the preset.
      const file = path.join(folder, change.folder, '.remarkrc.json')
      await fs.mkdir(path.dirname(file), {recursive: true})
      if (change.plugins === 'removed') await fs.rm(file, {force: true})
      else await fs.writeFile(file, JSON.stringify({plugins: change.plugins === 'preset' ? [presetFile] : []}) + '\n')
      return
    }
  }
}

const settingsFor = (cwd: string, cache: boolean): LintSettings => cachedSettings(cwd, ['.'], cache)

/** The report of the folder, with the cache or without. */
async function report(cwd: string, cache: boolean): Promise<string> {
  return (await lintFiles(settingsFor(cwd, cache))).report.text
}

/** The settings that shape what a run prints and exits with. */
interface Shape {
  files: '.' | 'sub'
  format: 'stylish' | 'json' | 'github'
  quiet: boolean
  silent: boolean
  frail: boolean
  maxWarnings: number | undefined
  baseline: boolean
  detectConfig: boolean
}

const shape: fc.Arbitrary<Shape> = fc.record({
  files: fc.constantFrom('.' as const, 'sub' as const),
  format: fc.constantFrom('stylish' as const, 'json' as const, 'github' as const),
  quiet: fc.boolean(),
  silent: fc.boolean(),
  frail: fc.boolean(),
  maxWarnings: fc.option(fc.integer({min: 0, max: 3}), {nil: undefined}),
  baseline: fc.boolean(),
  detectConfig: fc.boolean()
})

function shapedSettings(cwd: string, {files, baseline, ...rest}: Shape, cache: boolean): LintSettings {
  return {...settingsFor(cwd, cache), ...rest, files: [files], baseline: baseline ? undefined : false}
}

/** What a program could print for a result: the report, and every figure of the result its summary could use. */
const outputOf = (result: LintResult): LintOutput => ({
  writes: [
    {stream: result.report.stream, text: result.report.text},
    {stream: 'stderr', text: JSON.stringify({baseline: result.baseline ?? null, warnings: result.warnings, tooManyWarnings: result.tooManyWarnings}) + '\n'}
  ],
  code: result.code
})

/** The output of a run with these settings; with the cache, it is remembered. */
async function outputFor(settings: LintSettings): Promise<LintOutput> {
  return (await lintFiles(settings, () => {}, {outputOf})).output!
}

const plain: Shape = {files: '.', format: 'stylish', quiet: false, silent: false, frail: false, maxWarnings: undefined, baseline: true, detectConfig: false}
const inSub: Shape = {...plain, files: 'sub'}

/** Each input of the output, changed between two runs with the same settings: the runs a missing input would answer wrongly. */
const changeOfEachInput: Array<[[Shape, Shape], Array<Edit | 0 | 1>]> = [
  // The text of a file linted.
  [
    [plain, plain],
    [0, {kind: 'write', name: 'a.md', text: 0, id: 5}, 0]
  ],
  // A file found now that was not.
  [
    [plain, plain],
    [0, {kind: 'write', name: 'b.md', text: 0, id: 5}, 0]
  ],
  // The baseline’s text, naming the same files: it accepts the warnings of another text of `a.md`, which is then as it was.
  [
    [plain, plain],
    [
      {kind: 'baseline', accept: 'now'},
      0,
      {kind: 'write', name: 'a.md', text: 0, id: 5},
      {kind: 'baseline', accept: 'now'},
      {kind: 'write', name: 'a.md', text: 1, id: 1},
      0
    ]
  ],
  // A file the baseline lists, outside the paths linted: once it is gone, its warnings are unused.
  [
    [inSub, inSub],
    [{kind: 'baseline', accept: 'now'}, 0, {kind: 'remove', name: 'a.md'}, 0]
  ],
  // A configuration above the paths linted.
  [
    [{...inSub, detectConfig: true}, plain],
    [0, {kind: 'config', folder: '', plugins: 'none'}, 0]
  ],
  // The settings.
  [
    [plain, {...plain, silent: true}],
    [0, 1]
  ]
]

describe('the lint cache', () => {
  it('prints again only the output a run without it makes, after any edits and with any settings', async () => {
    // Runs with one of two settings, between edits: a run after another with the same settings is the case at stake.
    const step = fc.oneof(quietEdit, fc.constantFrom(0 as const, 1 as const))
    // An hour on: no file is too recently changed for its stamp to be trusted, so the runs rely on stamps as a later run does.
    const realNow = Date.now.bind(Date)
    const later = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 3_600_000)
    onTestFinished(() => later.mockRestore())
    await fc.assert(
      fc.asyncProperty(fc.tuple(shape, shape), fc.array(step, {minLength: 1, maxLength: 10}), async (shapes, steps) => {
        const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-output-property-')))
        folders.push(folder)
        await fs.writeFile(path.join(folder, 'a.md'), vague(1))
        await fs.mkdir(path.join(folder, 'sub'))
        await fs.writeFile(path.join(folder, 'sub', 'c.md'), twice(2))
        // There from the start, so that a change of its text is no change of the names in the folder.
        await fs.writeFile(path.join(folder, baselineName), '{}\n')
        for (const each of steps) {
          if (typeof each !== 'number') {
            await apply(folder, each)
            continue
          }
          const cached = shapedSettings(folder, shapes[each], true)
          const expected = await outputFor(shapedSettings(folder, shapes[each], false))
          const replayed = await replayLintOutput(cached)
          if (replayed !== undefined) expect(replayed).toEqual(expected)
          expect(await outputFor(cached)).toEqual(expected)
          // Nothing changed since: the output is printed again as it was (unless a path given is missing, which is never remembered).
          const found = await fs.stat(path.join(folder, shapes[each].files)).then(
            () => true,
            () => false
          )
          if (found) expect(await replayLintOutput(cached)).toEqual(expected)
        }
      }),
      {numRuns: 30, examples: changeOfEachInput}
    )
  })

  it('does not remember an output when a file changes while the run reports', async () => {
    const realNow = Date.now.bind(Date)
    const later = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 3_600_000)
    onTestFinished(() => later.mockRestore())
    const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-output-race-')))
    folders.push(folder)
    await fs.writeFile(path.join(folder, 'a.md'), vague(1))
    const settings = shapedSettings(folder, plain, true)
    // The edit comes after the file was linted and before the output is remembered.
    const editing = (result: LintResult): LintOutput => {
      writeFileSync(path.join(folder, 'a.md'), noSpecifics(2))
      return outputOf(result)
    }
    await lintFiles(settings, () => {}, {outputOf: editing})
    expect(await replayLintOutput(settings)).toBeUndefined()
    expect(await outputFor(settings)).toEqual(await outputFor(shapedSettings(folder, plain, false)))
  })

  it('reports after any edits exactly what a run without it reports', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, {minLength: 1, maxLength: 4}), fc.array(edit, {minLength: 1, maxLength: 4}), async (before, after) => {
        const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-cache-property-')))
        folders.push(folder)
        await fs.writeFile(path.join(folder, 'a.md'), vague(1))
        await fs.writeFile(path.join(folder, 'b.md'), twice(2))
        await expectCacheAgrees(folder, apply, report, before, after)
      }),
      {numRuns: 12}
    )
  })
})
