/**
 * The `generate-protocol` command: exit codes, exact output lines and the
 * files on disk. Each kind of outcome (a write, `--check` up to date or
 * stale, a doc over budget, a template error, a usage error, `--help`) goes
 * through the real bin in a child process; the variations run its `main` (all
 * the bin does) in the test process. Every run that writes gets its own root
 * under the OS temp folder, with a copy of the repo’s templates.
 */
import {execFile} from 'node:child_process'
import fs from 'node:fs'
import {cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {format} from 'node:util'
import {main, usage, writeFileAtomic} from '@verification-tiers/generate-protocol'
import {placeholders} from '@verification-tiers/protocol'
import {renderVerifyCheckpoint} from '@verification-tiers/runtime'
import {remark} from 'remark'
import remarkPresetLintRecommended from 'remark-preset-lint-recommended'
import remarkPresetLintVerificationTiers from 'remark-preset-lint-verification-tiers'
import {VFile} from 'vfile'
import {beforeAll, describe, expect, it, onTestFinished} from 'vitest'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const bin = path.join(repo, 'node_modules', '.bin', 'generate-protocol')
const partialsModule = 'packages/protocol/partials.generated.js'
const validatorsModule = 'packages/protocol/settings-validators.generated.js'
const tiersDoc = 'content/references/verification-tiers.md'
const tiersTemplate = 'templates/references/verification-tiers.md.hbs'
/** The repository's templates: the top-level workspace package the generator depends on, one copy of them. */
const repoTemplates = 'templates'

interface Run {
  code: number | null
  stdout: string[]
  stderr: string[]
}

/** Run the bin (no shell) and split what it printed into lines. */
function run(args: readonly string[], cwd = repo): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(bin, args, {cwd, encoding: 'utf8', timeout: 20_000}, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error)
      else resolve({code: error ? (error.code as number) : 0, stdout: lines(stdout), stderr: lines(stderr)})
    })
  })
}

/**
 * `run` in this process: the bin's `main` with the bin's streams (`console.log`
 * and `console.error`), without starting a process. Every path is under
 * `--root` (or none is read), so the working folder does not matter.
 */
async function runHere(args: readonly string[]): Promise<Run> {
  let stdout = ''
  let stderr = ''
  const code = await main(args, {stdout: (line) => (stdout += format(line) + '\n'), stderr: (line) => (stderr += format(line) + '\n')})
  return {code, stdout: lines(stdout), stderr: lines(stderr)}
}

function lines(text: string): string[] {
  return text === '' ? [] : text.replace(/\n$/, '').split('\n')
}

type OnFinished = typeof onTestFinished

/**
 * An empty temp folder, removed when the test finishes. Concurrent tests pass
 * their own context’s `onTestFinished`: the global one may belong to another.
 */
async function tempDir(prefix: string, onFinished: OnFinished = onTestFinished): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix))
  onFinished(() => rm(dir, {recursive: true, force: true}))
  return dir
}

/** A temp project root holding a copy of the repo’s templates. */
async function tempRoot(onFinished: OnFinished = onTestFinished): Promise<string> {
  const root = await tempDir('generate-protocol-test-', onFinished)
  await cp(path.join(repo, repoTemplates), path.join(root, 'templates'), {recursive: true})
  return root
}

/** Every file under `dir`, relative with `/`, sorted. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, {recursive: true, withFileTypes: true})
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort()
}

/** Bytes and modification time of every file under `dir`. */
async function snapshot(dir: string): Promise<Map<string, {bytes: string; mtimeMs: number}>> {
  const files = new Map<string, {bytes: string; mtimeMs: number}>()
  for (const file of await listFiles(dir)) {
    const full = path.join(dir, file)
    files.set(file, {bytes: (await readFile(full)).toString('base64'), mtimeMs: (await stat(full)).mtimeMs})
  }
  return files
}

/** The files generate-protocol owns in the repo: the docs in content/ (not the hand-written examples), the partials module and the settings validators. */
function generatedRepoFiles(): string[] {
  const docs = fs
    .readdirSync(path.join(repo, 'content'), {recursive: true, withFileTypes: true})
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(repo, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !file.startsWith('content/examples/'))
  return [...docs, partialsModule, validatorsModule].sort()
}

function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}

/** The budget of a template (`templates/…`), as the repository's copy declares it. */
function budgetOf(templateFile: string): number {
  const match = /^\{\{!--\s*budget:\s*(\d+)\s*--\}\}/.exec(fs.readFileSync(path.join(repo, repoTemplates, templateFile.replace(/^templates\//, '')), 'utf8'))
  if (!match) throw new Error(`No budget comment in ${templateFile}`)
  return Number(match[1])
}

/** Lines per heading section, counted here independently of the package (headings in fences do not count). */
function sections(text: string): Array<{heading: string; lines: number}> {
  const result: Array<{heading: string; lines: number}> = [{heading: '(before the first heading)', lines: 0}]
  let inFence = false
  for (const line of text.replace(/\n$/, '').split('\n')) {
    if (/^```/.test(line)) inFence = !inFence
    if (!inFence && /^#{1,6} /.test(line)) result.push({heading: line, lines: 0})
    result[result.length - 1]!.lines++
  }
  return result.filter((section) => section.lines > 0)
}

const notice = (template: string) => `<!-- Generated by generate-protocol from ${template}: edit the template, not this file. -->\n\n`

beforeAll(() => {
  if (!fs.existsSync(bin) || !fs.existsSync(path.join(repo, 'packages/generate-protocol/dist/bin.js'))) {
    throw new Error('Build first: `npx tsc -b`')
  }
})

describe('generate-protocol: up to date', () => {
  it('`--check` in the repo exits 0 and says so, writing nothing', async () => {
    const before = await Promise.all(generatedRepoFiles().map(async (file) => (await stat(path.join(repo, file))).mtimeMs))
    // `templates/` is the default, as `npm run check:protocol` runs it.
    expect(await run(['--check'])).toEqual({code: 0, stdout: ['generate-protocol: up to date'], stderr: []})
    const after = await Promise.all(generatedRepoFiles().map(async (file) => (await stat(path.join(repo, file))).mtimeMs))
    expect(after).toEqual(before)
  })

  it('regenerating into a temp root reproduces content/, the partials module and the settings validators byte for byte', async () => {
    // Laid out as the repository is: the templates at the top level.
    const root = await tempDir('generate-protocol-test-')
    await cp(path.join(repo, repoTemplates), path.join(root, repoTemplates), {recursive: true})
    const expected = generatedRepoFiles()
    const docs = expected.filter((file) => file.startsWith('content/'))
    expect(docs).toEqual(['content/CLAUDE.md', 'content/references/checkpoint-protocol.md', 'content/references/verification-tiers.md'])

    const result = await run(['--root', root, '--templates', repoTemplates])
    expect(result.stderr).toEqual([])
    expect(result.code).toBe(0)
    expect(result.stdout).toEqual([
      ...docs.map((file) => {
        const template = file.replace(/^content\//, 'templates/') + '.hbs'
        return `wrote ${file} (${lineCount(fs.readFileSync(path.join(repo, file), 'utf8'))}/${budgetOf(template)} lines)`
      }),
      `wrote ${partialsModule}`,
      `wrote ${validatorsModule}`
    ])

    const written = (await listFiles(root)).filter((file) => !file.startsWith(`${repoTemplates}/`))
    expect(written).toEqual(expected)
    for (const file of expected) {
      const ours = await readFile(path.join(root, file))
      const committed = await readFile(path.join(repo, file))
      expect(ours.equals(committed), `${file} differs from the committed one`).toBe(true)
    }

    // A second run finds nothing to do and touches nothing (in this process: the bin's `--check` is the test above).
    const before = await snapshot(root)
    const again = await runHere(['--root', root, '--templates', repoTemplates])
    expect(again.code).toBe(0)
    expect(again.stdout.map((line) => line.replace(/ \(.*\)$/, ''))).toEqual(expected.map((file) => `unchanged ${file}`))
    expect(await snapshot(root)).toEqual(before)
    expect(await runHere(['--check', '--root', root, '--templates', repoTemplates])).toEqual({code: 0, stdout: ['generate-protocol: up to date'], stderr: []})
  })
})

describe('generate-protocol: budgets', () => {
  it('the committed verification-tiers.md is under 150 lines (NFR-2) and within its budget', () => {
    const lines = lineCount(fs.readFileSync(path.join(repo, tiersDoc), 'utf8'))
    expect(lines).toBeLessThan(150)
    expect(lines).toBeLessThanOrEqual(budgetOf(tiersTemplate))
  })

  it('a doc over its budget fails with one line naming it, and nothing is written', async () => {
    const root = await tempRoot()
    expect((await runHere(['--root', root])).code).toBe(0)
    const before = await snapshot(root)
    const text = fs.readFileSync(path.join(repo, tiersDoc), 'utf8')
    const lines = lineCount(text)
    const budget = lines - 10

    // Lower the budget, and change templates that would give other files, so
    // any write would show in their bytes, not only their times.
    const tiers = path.join(root, tiersTemplate)
    const source = await readFile(tiers, 'utf8')
    expect(source.startsWith(`{{!-- budget: ${budgetOf(tiersTemplate)} --}}\n`)).toBe(true)
    await writeFile(tiers, source.replace(/^\{\{!-- budget: \d+ --\}\}/, `{{!-- budget: ${budget} --}}`))
    await writeFile(path.join(root, 'templates/CLAUDE.md.hbs'), (await readFile(path.join(root, 'templates/CLAUDE.md.hbs'), 'utf8')) + '* One more rule\n')
    const decision = path.join(root, 'templates/partials/decision-checkpoint.hbs')
    await writeFile(decision, (await readFile(decision, 'utf8')).replace('DECISION NEEDED', 'DECISION REQUIRED'))
    const templatesBefore = await snapshot(path.join(root, 'templates'))

    const largest = sections(text)
      .sort((a, b) => b.lines - a.lines)
      .slice(0, 3)
    expect(largest.map((section) => section.heading)).toEqual(['## Rejection counter and escalation', '## Verify checkpoint', '## Rejection flow'])
    const expected =
      `generate-protocol: ${tiersDoc}: ${lines} lines, over its budget of ${budget} (from ${tiersTemplate}); ` +
      `largest sections: ${largest.map((section) => `${section.heading} (${section.lines})`).join(', ')}`

    // The write through the bin, `--check` in this process.
    expect(await run(['--root', root])).toEqual({code: 1, stdout: [], stderr: [expected]})
    expect(await runHere(['--check', '--root', root])).toEqual({code: 1, stdout: [], stderr: [expected]})

    const after = await snapshot(root)
    for (const [file, {bytes, mtimeMs}] of before) {
      if (file.startsWith('templates/')) continue
      expect(after.get(file)?.bytes, `${file} was rewritten`).toBe(bytes)
      expect(after.get(file)?.mtimeMs, `${file} was touched`).toBe(mtimeMs)
    }
    expect([...after.keys()].filter((file) => !file.startsWith('templates/'))).toEqual([...before.keys()].filter((file) => !file.startsWith('templates/')))
    expect(await snapshot(path.join(root, 'templates'))).toEqual(templatesBefore)
    expect([...after.keys()].filter((file) => file.endsWith('.tmp'))).toEqual([])
  })
})

describe('generate-protocol --check: stale files', () => {
  it('names exactly the doc and the validators edited by hand and the deleted partials module, and writes nothing', async () => {
    const root = await tempRoot()
    expect((await runHere(['--root', root])).code).toBe(0)
    const edited = path.join(root, 'content/references/checkpoint-protocol.md')
    await writeFile(edited, (await readFile(edited, 'utf8')).replace('stops the pipeline', 'halts the pipeline'))
    await rm(path.join(root, partialsModule))
    // A validators module broken by hand is stale like any other file it writes.
    await writeFile(path.join(root, validatorsModule), 'export const settingsValidators = (\n')
    const before = await snapshot(root)

    expect(await run(['--check', '--root', root])).toEqual({
      code: 1,
      stdout: [],
      stderr: [
        `generate-protocol: stale: content/references/checkpoint-protocol.md, ${partialsModule}, ${validatorsModule}; run \`npm run generate-protocol\` and commit the result`
      ]
    })
    expect(await snapshot(root)).toEqual(before)
    expect(fs.existsSync(path.join(root, partialsModule))).toBe(false)

    // Regenerating repairs exactly those three.
    const fixed = await runHere(['--root', root])
    expect(fixed.code).toBe(0)
    const lines = lineCount(fs.readFileSync(path.join(repo, 'content/references/checkpoint-protocol.md'), 'utf8'))
    const budget = budgetOf('templates/references/checkpoint-protocol.md.hbs')
    expect(fixed.stdout.filter((line) => line.startsWith('wrote '))).toEqual([
      `wrote content/references/checkpoint-protocol.md (${lines}/${budget} lines)`,
      `wrote ${partialsModule}`,
      `wrote ${validatorsModule}`
    ])
    expect(await readFile(path.join(root, validatorsModule), 'utf8')).toBe(await readFile(path.join(repo, validatorsModule), 'utf8'))
    expect((await runHere(['--check', '--root', root])).code).toBe(0)
  })
})

describe('generate-protocol: what it loads', () => {
  /** The bin run in a process that writes down every module it loads (`helpers/record-modules.mjs`): its exit code and those modules. */
  async function loading(args: readonly string[], cwd: string): Promise<{code: number | null; modules: string[]}> {
    const log = path.join(await tempDir('generate-protocol-modules-'), 'modules.txt')
    await writeFile(log, '')
    const recorder = path.join(repo, 'test/helpers/record-modules.mjs')
    const code = await new Promise<number | null>((resolve) => {
      execFile(
        process.execPath,
        ['--import', recorder, path.join(repo, 'packages/generate-protocol/bin/generate-protocol.js'), ...args],
        {cwd, env: {...process.env, TIERS_TEST_MODULES: log}},
        (error) => resolve(error ? ((error.code as number | undefined) ?? null) : 0)
      )
    })
    return {code, modules: (await readFile(log, 'utf8')).split('\n').filter((line) => line.startsWith('file:'))}
  }
  const validators = (modules: string[]) => modules.filter((url) => url.endsWith(`/${validatorsModule}`))

  it('compiles the settings validators without loading the module it writes; loads it for a project’s settings only', async () => {
    const repoRun = await loading(['--check'], repo)
    expect(repoRun.code).toBe(0)
    expect(repoRun.modules.some((url) => url.endsWith('/packages/generate-protocol/dist/lib/validators.js'))).toBe(true)
    expect(validators(repoRun.modules)).toEqual([])

    const project = await tempDir('generate-protocol-project-')
    await cp(path.join(repo, 'content/examples/greenlight-project/.greenlight/config.json'), path.join(project, '.greenlight/config.json'))
    const projectRun = await loading(['--project', '.', '--out', 'docs'], project)
    expect(projectRun.code).toBe(0)
    expect(validators(projectRun.modules)).toHaveLength(1)
  })
})

describe.concurrent('generate-protocol: strict templates', () => {
  const doc = (body: string) => `{{!-- budget: 40 --}}\n# Extra\n\n${body}`
  // The first case’s write through the bin; the rest in this process.
  const cases: Array<{name: string; files: Record<string, string>; error: string; bin?: true}> = [
    {
      bin: true,
      name: 'a missing value',
      files: {'references/extra.md.hbs': doc('At {{protocol.rejectionThresold}} rejections, escalate.\n')},
      error: 'templates/references/extra.md.hbs:4:6: "rejectionThresold" not defined'
    },
    {
      name: 'a missing value inside a partial (named at the partial’s line)',
      files: {
        'partials/broken.hbs': 'BROKEN\n\n  {{#if sliceId}}{{sliceTitle}}{{/if}}\n',
        'references/extra.md.hbs': doc('```text\n{{> broken placeholders.verifyCheckpoint}}\n```\n')
      },
      error: 'templates/partials/broken.hbs:3:20: "sliceTitle" not defined'
    },
    {
      name: 'an unknown helper',
      files: {'references/extra.md.hbs': doc('Text.\n\n{{shout protocol.passingHeadline}}\n')},
      error: 'templates/references/extra.md.hbs:6:1: You specified knownHelpersOnly, but used the unknown helper shout'
    },
    {
      name: 'an unknown partial',
      files: {'references/extra.md.hbs': doc('```text\n{{> verify-checkpont placeholders.verifyCheckpoint}}\n```\n')},
      error: 'templates/references/extra.md.hbs:5:1: The partial verify-checkpont could not be found'
    },
    {
      name: 'an unknown partial in a partial',
      files: {'partials/wrapper.hbs': 'Wrapped:\n{{> escalaton}}\n'},
      error: 'templates/partials/wrapper.hbs:2:1: The partial escalaton could not be found'
    },
    {
      name: 'a parse error',
      files: {'references/extra.md.hbs': doc('Tiers:\n\n* {{protocol.tiers}\n')},
      error:
        "templates/references/extra.md.hbs:6: Expecting 'CLOSE_RAW_BLOCK', 'CLOSE', 'CLOSE_UNESCAPED', 'OPEN_SEXPR', 'CLOSE_SEXPR', 'ID', 'OPEN_BLOCK_PARAMS', 'STRING', 'NUMBER', 'BOOLEAN', 'UNDEFINED', 'NULL', 'DATA', 'SEP', got 'INVALID'"
    },
    {
      name: 'a block closed by the wrong name',
      files: {'references/extra.md.hbs': doc('{{#each protocol.tiers}}\n* {{this}}\n{{/if}}\n')},
      error: "templates/references/extra.md.hbs:4:4: each doesn't match if"
    },
    {
      name: 'a template with no budget comment',
      files: {'references/extra.md.hbs': '# Extra\n\nNo budget here.\n'},
      error: 'templates/references/extra.md.hbs:1:1: Unexpected template without a line budget, expected `{{!-- budget: <lines> --}}` as its first line'
    },
    {
      name: 'a budget comment that is not the first line',
      files: {'references/extra.md.hbs': '# Extra\n{{!-- budget: 40 --}}\n'},
      error: 'templates/references/extra.md.hbs:1:1: Unexpected template without a line budget, expected `{{!-- budget: <lines> --}}` as its first line'
    }
  ]

  it.for(cases)('$name: exit 1 with one located line, nothing written', async ({files, error, bin: throughBin}, {expect, onTestFinished}) => {
    const root = await tempRoot(onTestFinished)
    for (const [file, text] of Object.entries(files)) await writeFile(path.join(root, 'templates', file), text)
    const expected = {code: 1, stdout: [], stderr: [`generate-protocol: ${error}`]}
    expect(await Promise.all([(throughBin ? run : runHere)(['--root', root]), runHere(['--check', '--root', root])])).toEqual([expected, expected])
    expect((await listFiles(root)).filter((file) => !file.startsWith('templates/'))).toEqual([])
  })
})

describe('generate-protocol: blank lines and lint', () => {
  it('keeps the blank lines around a partial alone on its line', async () => {
    const root = await tempRoot()
    const template = 'templates/references/blank.md.hbs'
    await writeFile(
      path.join(root, template),
      '{{!-- budget: 40 --}}\n# Blank lines\n\nBefore the checkpoint.\n\n{{> verify-checkpoint placeholders.verifyCheckpoint}}\n\nAfter the checkpoint.\n'
    )
    const result = await runHere(['--root', root])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('wrote content/references/blank.md (26/40 lines)')
    const text = await readFile(path.join(root, 'content/references/blank.md'), 'utf8')
    expect(text).toBe(
      notice(template) + '# Blank lines\n\nBefore the checkpoint.\n\n' + renderVerifyCheckpoint(placeholders.verifyCheckpoint) + '\n\nAfter the checkpoint.\n'
    )
    expect(text).toContain('Before the checkpoint.\n\nALL TESTS PASSING — Slice {slice_id}: {slice_name}\n')
    expect(text).toContain("I'll describe the gaps\n\nAfter the checkpoint.\n")
  })

  it('the generated repo docs lint clean (recommended + verification-tiers presets)', async () => {
    const docs = generatedRepoFiles().filter((file) => file.endsWith('.md'))
    expect(docs.length).toBe(3)
    for (const doc of docs) {
      const file = await remark()
        .use(remarkPresetLintRecommended)
        .use(remarkPresetLintVerificationTiers)
        .process(new VFile({path: path.join(repo, doc), value: await readFile(path.join(repo, doc), 'utf8')}))
      expect(file.messages.map((message) => `${doc}:${String(message)}`)).toEqual([])
    }
  })
})

describe('writeFileAtomic', () => {
  it('writes and replaces a file, creating folders, leaving no temp file', async () => {
    const root = await tempDir('generate-protocol-atomic-')
    const target = path.join(root, 'deep/er/doc.md')
    await writeFileAtomic(target, 'first\n')
    await writeFileAtomic(target, 'second\n')
    expect(await readFile(target, 'utf8')).toBe('second\n')
    expect(await listFiles(root)).toEqual(['deep/er/doc.md'])
  })

  it('leaves the old target intact and no temp file when the rename fails', async () => {
    const root = await tempDir('generate-protocol-atomic-')
    // The target is a folder holding a file: renaming a file over it fails.
    const target = path.join(root, 'doc.md')
    await mkdir(target)
    await writeFile(path.join(target, 'keep.txt'), 'old\n')
    await writeFile(path.join(root, 'neighbour.md'), 'neighbour\n')
    const before = await snapshot(root)

    await expect(writeFileAtomic(target, 'new\n')).rejects.toMatchObject({code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST|EPERM)$/)})
    expect((await stat(target)).isDirectory()).toBe(true)
    expect(await snapshot(root)).toEqual(before)
    expect(await readdir(root)).toEqual(['doc.md', 'neighbour.md'])
  })
})

describe.concurrent('generate-protocol: usage', () => {
  const usageLines = usage.split('\n')

  it('an unknown option exits 2 with the usage', async ({expect}) => {
    expect(await run(['--bogus'])).toEqual({code: 2, stdout: [], stderr: ["generate-protocol: Unknown option '--bogus'", ...usageLines]})
  })

  // The bin’s exit 2 is the test above, its exit 0 the next: these, in this process.
  it('a positional argument or a missing option value exits 2 with the usage', async ({expect}) => {
    const positional = await runHere(['content'])
    expect(positional.code).toBe(2)
    expect(positional.stderr).toEqual(["generate-protocol: Unexpected argument 'content'. This command does not take positional arguments", ...usageLines])
    const missing = await runHere(['--root'])
    expect(missing.code).toBe(2)
    expect(missing.stderr.slice(1)).toEqual(usageLines)
    expect(missing.stderr[0]).toMatch(/^generate-protocol: Option '--root <value>' argument missing$/)
  })

  it('`--help` and `-h` exit 0 with the usage on stdout', async ({expect}) => {
    expect(usageLines[0]).toBe('Usage: generate-protocol [--check] [--root <dir>] [--templates <dir>] [--out <dir>] [--partials <file>]')
    expect(await run(['--help'])).toEqual({code: 0, stdout: usageLines, stderr: []})
    expect(await runHere(['-h'])).toEqual({code: 0, stdout: usageLines, stderr: []})
  })
})
