/**
 * The lint baseline: what it holds (warnings of rules, by file, rule and
 * reason, counted, no lines), what applying it leaves (the warnings beyond
 * its counts, every error), and that a file that is not a baseline is an
 * error naming the file and the place, never an empty baseline.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import {afterAll, describe, expect, it} from 'vitest'
import {VFile} from 'vfile'
import {FileReadError} from '@verification-tiers/input'
import {
  applyLintBaseline,
  formatLintBaseline,
  lintBaselineOf,
  lintBaselineSize,
  mergeLintBaseline,
  parseLintBaseline,
  readLintBaseline,
  writeLintBaseline
} from '../lib/baseline.js'

const cwd = path.join(os.tmpdir(), 'verification-tiers-baseline-project')

type Kind = 'warning' | 'error' | 'info' | 'engine'

/** A file of `cwd` with messages: each a rule's warning, error or info, or the engine's fatal message without a rule. */
function fileWith(name: string, messages: ReadonlyArray<[Kind, string, string, number?]>): VFile {
  const file = new VFile({path: name, cwd, value: ''})
  for (const [kind, rule, reason, line = 1] of messages) {
    const message = file.message(reason, {place: {line, column: 1}, ...(kind === 'engine' ? {} : {ruleId: rule, source: 'remark-lint'})})
    message.fatal = kind === 'warning' ? false : kind === 'info' ? undefined : true
  }
  return file
}

const reasonsOf = (file: VFile): string[] => file.messages.map((message) => message.reason)

describe('lintBaselineOf and formatLintBaseline', () => {
  it('counts the warnings of each rule by file and reason, with `/` paths from the baseline’s folder and sorted keys; errors, infos and engine messages are left out', () => {
    const files = [
      fileWith('notes/b.md', [
        ['warning', 'verify-tier-criteria', 'Unexpected contract C-02 without criteria', 9],
        ['warning', 'verify-tier-criteria', 'Unexpected contract C-02 without criteria', 30],
        ['error', 'verification-tier', 'Unexpected tier `sometimes`'],
        ['info', 'contract-field-name', 'A note']
      ]),
      fileWith('a.md', [
        ['warning', 'contract-item-list', 'Unexpected paragraph under `Steps`'],
        ['engine', '', 'Cannot process file']
      ])
    ]
    const baseline = lintBaselineOf(files, cwd)
    expect(formatLintBaseline(baseline)).toBe(
      [
        '{',
        '  "a.md": {',
        '    "remark-lint:contract-item-list": {',
        '      "Unexpected paragraph under `Steps`": 1',
        '    }',
        '  },',
        '  "notes/b.md": {',
        '    "remark-lint:verify-tier-criteria": {',
        '      "Unexpected contract C-02 without criteria": 2',
        '    }',
        '  }',
        '}',
        ''
      ].join('\n')
    )
    expect(lintBaselineSize(baseline)).toEqual({warnings: 3, files: 2})
    // Paths are from the baseline's folder, wherever it is.
    expect([...lintBaselineOf(files, path.join(cwd, 'notes')).keys()]).toEqual(['b.md', '../a.md'])
  })
})

describe('applyLintBaseline', () => {
  it('leaves out what it counts, keeps what is beyond the count, another reason, rule or file, and every error', () => {
    const today = [fileWith('a.md', [['warning', 'rule-a', 'Unexpected x', 3]])]
    const baseline = lintBaselineOf(today, cwd)
    const later = [
      fileWith('a.md', [
        ['warning', 'rule-a', 'Unexpected x', 40],
        ['warning', 'rule-a', 'Unexpected x', 41],
        ['warning', 'rule-a', 'Unexpected y', 42],
        ['warning', 'rule-b', 'Unexpected x', 43],
        ['error', 'rule-a', 'Unexpected x', 44]
      ]),
      fileWith('b.md', [['warning', 'rule-a', 'Unexpected x', 1]])
    ]
    const applied = applyLintBaseline(later, baseline, cwd)
    expect(applied.accepted).toBe(1)
    expect(applied.unused).toBe(0)
    // The first match is the one accepted, whatever line it moved to.
    expect(applied.files[0]?.messages.map((message) => [message.line, message.reason, message.ruleId])).toEqual([
      [41, 'Unexpected x', 'rule-a'],
      [42, 'Unexpected y', 'rule-a'],
      [43, 'Unexpected x', 'rule-b'],
      [44, 'Unexpected x', 'rule-a']
    ])
    expect(reasonsOf(applied.files[1]!)).toEqual(['Unexpected x'])
    // The files given are not changed.
    expect(later[0]?.messages).toHaveLength(5)
  })

  it('counts as unused what no longer occurs in the files linted, and in files that are gone; not in files not linted that exist', async () => {
    const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-baseline-')))
    folders.push(folder)
    await fs.writeFile(path.join(folder, 'kept.md'), '')
    const inFolder = (name: string, messages: ReadonlyArray<[Kind, string, string, number?]>) => {
      const file = fileWith(name, messages)
      file.cwd = folder
      return file
    }
    const baseline = lintBaselineOf(
      [
        inFolder('a.md', [
          ['warning', 'r', 'Unexpected a'],
          ['warning', 'r', 'Unexpected a']
        ]),
        inFolder('kept.md', [['warning', 'r', 'Unexpected k']]),
        inFolder('gone.md', [['warning', 'r', 'Unexpected g']])
      ],
      folder
    )
    const applied = applyLintBaseline([inFolder('a.md', [['warning', 'r', 'Unexpected a']])], baseline, folder)
    expect({accepted: applied.accepted, unused: applied.unused}).toEqual({accepted: 1, unused: 2})
  })

  it('property: a run against its own baseline reports only its errors; one warning more is reported alone', () => {
    const message = fc.tuple(
      fc.constantFrom<Kind>('warning', 'warning', 'error', 'info'),
      fc.constantFrom('r1', 'r2'),
      fc.constantFrom('Unexpected a', 'Unexpected b', 'Unexpected "c"'),
      fc.nat(50)
    )
    const project = fc.array(fc.tuple(fc.constantFrom('a.md', 'dir/b.md', 'c d.md'), fc.array(message, {maxLength: 8})), {maxLength: 4})
    fc.assert(
      fc.property(
        project,
        fc.tuple(fc.constantFrom('a.md', 'dir/b.md'), fc.constantFrom('r1', 'r2'), fc.constantFrom('Unexpected a', 'Unexpected new')),
        (spec, extra) => {
          const files = spec.map(([name, messages]) => fileWith(name, messages))
          // Read back from its file's text: what is written is what is applied.
          const baseline = parseLintBaseline('tiers-lint-baseline.json', formatLintBaseline(lintBaselineOf(files, cwd)))
          const applied = applyLintBaseline(files, baseline, cwd)
          const warnings = files.flatMap((file) => file.messages.filter((each) => each.fatal === false))
          expect(applied.accepted).toBe(warnings.length)
          expect(applied.unused).toBe(0)
          expect(applied.files.flatMap((file) => file.messages.filter((each) => each.fatal === false))).toEqual([])
          expect(applied.files.flatMap((file) => file.messages.filter((each) => each.fatal !== false))).toEqual(
            files.flatMap((file) => file.messages.filter((each) => each.fatal !== false))
          )
          const [name, rule, reason] = extra
          const more = [...files, fileWith(name, [['warning', rule, reason, 7]])]
          const left = applyLintBaseline(more, baseline, cwd).files.flatMap((file) => file.messages.filter((each) => each.fatal === false))
          expect(left.map((each) => [each.file, each.ruleId, each.reason])).toEqual([[name, rule, reason]])
        }
      )
    )
  })
})

describe('mergeLintBaseline', () => {
  it('takes the files linted now from the new baseline, keeps the others that exist, forgets the ones gone', async () => {
    const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-baseline-')))
    folders.push(folder)
    await fs.writeFile(path.join(folder, 'other.md'), '')
    const at = (name: string, reason: string) => Object.assign(fileWith(name, [['warning', 'r', reason]]), {cwd: folder})
    const previous = lintBaselineOf(
      [at('now.md', 'Unexpected old'), at('clean.md', 'Unexpected fixed'), at('other.md', 'Unexpected kept'), at('gone.md', 'Unexpected gone')],
      folder
    )
    const linted = [at('now.md', 'Unexpected new'), Object.assign(new VFile({path: 'clean.md', value: ''}), {cwd: folder})]
    const merged = mergeLintBaseline(previous, lintBaselineOf(linted, folder), linted, folder)
    expect(JSON.parse(formatLintBaseline(merged))).toEqual({
      'now.md': {'remark-lint:r': {'Unexpected new': 1}},
      'other.md': {'remark-lint:r': {'Unexpected kept': 1}}
    })
  })
})

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

describe('readLintBaseline', () => {
  async function baselineFile(text: string | null): Promise<string> {
    const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-baseline-')))
    folders.push(folder)
    const file = path.join(folder, 'tiers-lint-baseline.json')
    if (text !== null) await fs.writeFile(file, text)
    return file
  }

  it('none when there is no file; a written baseline reads back the same', async () => {
    const file = await baselineFile(null)
    expect(await readLintBaseline(file)).toBeNull()
    const baseline = lintBaselineOf(
      [
        fileWith('a.md', [
          ['warning', 'r', 'Unexpected a'],
          ['warning', 'r', 'Unexpected a']
        ])
      ],
      cwd
    )
    await writeLintBaseline(file, baseline)
    expect(await readLintBaseline(file)).toEqual(baseline)
  })

  it.each([
    ['{"a.md": {"remark-lint:r": {"Unexpected a": 1}},}', '1:49: Unexpected text that is not JSON (PropertyNameExpected)'],
    ['{\n  "a.md": {\n    "remark-lint:r": {"Unexpected a": 1\n  }\n}\n', '6:1: Unexpected text that is not JSON (CloseBraceExpected)'],
    ['', '1:1: Unexpected text that is not JSON (ValueExpected)'],
    ['// accepted\n{}', '1:1: Unexpected text that is not JSON (InvalidCommentToken)'],
    ['[]', '1:1: Unexpected array, expected an object of files'],
    ['{"a.md": ["r"]}', '1:10: Unexpected array, expected an object of rules (`source:rule-id`) for `a.md`'],
    ['{"a.md": {"r": {"Unexpected a": 0}}}', '1:33: Unexpected count `0` for `r` in `a.md`, expected a whole number of 1 or more'],
    ['{"a.md": {"r": {"Unexpected a": 1.5}}}', '1:33: Unexpected count `1.5` for `r` in `a.md`, expected a whole number of 1 or more'],
    ['{"a.md": {"r": {"Unexpected a": "1"}}}', '1:33: Unexpected count `"1"` for `r` in `a.md`, expected a whole number of 1 or more'],
    [
      '{"a.md": {"r": {"Unexpected a": 1, "Unexpected a": 2}}}',
      '1:36: Unexpected key `Unexpected a` given twice, expected an object of message reasons for `r` in `a.md`, each once'
    ],
    ['{"": {}}', '1:2: Unexpected empty key, expected an object of files']
  ])('%j is an error naming the file and the place', async (text, expected) => {
    const file = await baselineFile(text)
    const error = await readLintBaseline(file, 'tiers-lint-baseline.json').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(FileReadError)
    expect((error as Error).message.startsWith(`tiers-lint-baseline.json:${expected}`), (error as Error).message).toBe(true)
  })

  it('JSON nested deeper than the parser follows is an error at 1:1, never a stack overflow', async () => {
    const file = await baselineFile('['.repeat(100_000))
    await expect(readLintBaseline(file, 'tiers-lint-baseline.json')).rejects.toThrow(
      new FileReadError('tiers-lint-baseline.json', 'Unexpected nesting too deep to read, expected the JSON `tiers lint --update-baseline` writes', {
        line: 1,
        column: 1
      })
    )
  })

  it('a folder named as the baseline is an error, not an empty baseline', async () => {
    const file = await baselineFile(null)
    await fs.mkdir(file)
    await expect(readLintBaseline(file, 'b.json')).rejects.toThrow('b.json: Unexpected folder, expected a regular file')
  })

  it('is never written through a symbolic link', async () => {
    const file = await baselineFile(null)
    const target = path.join(path.dirname(file), 'elsewhere.json')
    await fs.symlink(target, file)
    await expect(writeLintBaseline(file, new Map(), 'b.json')).rejects.toThrow('b.json: Unexpected symbolic link, expected a regular file')
    await expect(fs.stat(target)).rejects.toThrow()
  })
})
