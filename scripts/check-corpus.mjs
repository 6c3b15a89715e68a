#!/usr/bin/env node
// `npm run check:corpus`: run the built `tiers` (its `main`, in this process:
// `tiers-here.mjs`) on each real project of
// `../shared/corpus/` that has a `.greenlight` folder and figures in
// `../shared/corpus/expected.json`, and compare what `tiers contracts --json`
// and `tiers status --json` report with what a person counted:
//
// * `contracts`; `tiers` as written (`verify`, `auto`, `unset`); `criteria`
//   and `steps` over verify contracts; `slices`
// * `verify_contracts_without_steps`: exactly those verify contracts have no steps
// * `slice_tiers`: a count per tier (`auto`, `verify`, `retired`), or a slice
//   id or range of ids (`S-2 to S-10`) with its tier or `no contracts`
// * `samples`: a contract (by id or name: its tier, criteria, steps, slice)
//   or a slice (its criteria, steps, and contracts that are its verify ones)
// * nothing in `problems`, nothing on stderr but the one true warning a
//   Greenlight project's own config earns (`workflow.visual_checkpoint`, which
//   tiers ignores: the tiers decide)
// * `lint_with_the_preset`: the messages of each rule when the `remark` CLI
//   lints the `.greenlight` folder with `remark-preset-lint-verification-tiers`
//   (`any other rule`: the rest together; `messages on <folder>/*.md`: those
//   of files in that folder); a project without the key expects none
// * a newcomer's first CI run: after `tiers init --ci github`, the workflow's
//   lint command passes on the project as it is (and, for another tool's
//   project, its `tiers verify --all`), and fails naming a unit added with
//   nothing to check
//
// Projects of other spec-driven tools (`toolProjects`: spec-kit's `specs/`)
// are checked for the figures their row names (`features` → slices,
// `user_stories` → contracts, `acceptance_scenarios` → criteria…).
//
// Each project is copied to a temporary folder first: the corpus is read
// only, and `tiers` writes its state under `.greenlight/tiers/` (`remark`,
// which writes nothing, lints the corpus itself, every project in one run).
// Nothing of it is copied into the repository. Without `../shared/corpus` it says so in
// one line and passes.
//
// Usage: node scripts/check-corpus.mjs [--corpus <dir>]
// One line per check; exits 1 when any check fails.
import {AsyncLocalStorage} from 'node:async_hooks'
import {execFile} from 'node:child_process'
import {existsSync} from 'node:fs'
import {appendFile, chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {parseArgs, promisify} from 'node:util'
import {runTiersInProcess} from './tiers-here.mjs'

const execFileAsync = promisify(execFile)
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const remarkBin = path.join(root, 'node_modules/remark-cli/cli.js')
const preset = 'remark-preset-lint-verification-tiers'
const {values} = parseArgs({options: {corpus: {type: 'string'}}})
const corpus = path.resolve(values.corpus ?? path.join(root, '..', 'shared', 'corpus'))
const expectedFile = path.join(corpus, 'expected.json')

if (!existsSync(expectedFile)) {
  console.log(`check-corpus: no corpus at ${corpus} (expected.json missing), nothing to check`)
  process.exit(0)
}

const expected = JSON.parse(await readFile(expectedFile, 'utf8'))
let failures = 0
let checks = 0

// Projects are checked two at a time; each one's lines are kept and printed in the corpus's order.
const projectLines = new AsyncLocalStorage()
const say = (line) => projectLines.getStore()?.push(line) ?? console.log(line)

/** One check: a line saying what was compared, `FAIL` when it differs. */
function check(project, what, want, got) {
  checks++
  const same = JSON.stringify(want) === JSON.stringify(got)
  if (!same) failures++
  say(`${same ? 'ok  ' : 'FAIL'} ${project} ${what}: ${same ? JSON.stringify(got) : `expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`}`)
}

/** Stderr without the deprecation warning of `workflow.visual_checkpoint`: true of the projects that set it, and no reading error. */
function unexpectedWarnings(stderr) {
  return stderr
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('tiers: warning: `workflow.visual_checkpoint` is deprecated'))
    .join('\n')
}

/** `tiers <args> --json` in `folder` on its project folder `dir`: its data, and its stderr. */
async function tiers(folder, args, dir = '.greenlight') {
  const run = await runCli(folder, [...args, '--dir', dir, '--json'], {})
  if (run.code !== 0) return {data: null, stderr: run.stderr, code: run.code}
  try {
    return {data: JSON.parse(run.stdout), stderr: unexpectedWarnings(run.stderr), code: 0}
  } catch (error) {
    return {data: null, stderr: error.message, code: 1}
  }
}

/**
 * The preset's messages on the `.greenlight` folder of each of `names`, by
 * rule, and by folder of the file, from one `remark` run over all of them
 * (remark's start is most of a run's cost; it reports file by file, and
 * writes nothing, so it reads the corpus itself): `remark` runs from the
 * repository's root, so the preset resolves, with no configuration of the
 * projects' own.
 */
async function lintCountsOf(names) {
  if (names.length === 0) return new Map()
  const folders = names.map((name) => path.join(corpus, name, '.greenlight'))
  const args = [remarkBin, '--no-config', '--no-color', '--quiet', '--use', preset, '--report', 'json', ...folders]
  let stderr
  try {
    ;({stderr} = await execFileAsync(process.execPath, args, {cwd: root, maxBuffer: 256 * 1024 * 1024}))
  } catch (error) {
    // A fatal message exits 1, and the report is still on stderr.
    stderr = String(error.stderr ?? '')
  }
  const files = JSON.parse(stderr)
  const counts = new Map(names.map((name) => [name, {byRule: {}, byFolder: {}}]))
  for (const file of files) {
    const full = path.resolve(root, file.path)
    const index = folders.findIndex((folder) => full.startsWith(folder + path.sep))
    if (index === -1) throw new Error(`remark reported ${file.path}, in none of the folders it was given`)
    const {byRule, byFolder} = counts.get(names[index])
    const where = path.dirname(path.relative(folders[index], full))
    for (const message of file.messages) {
      const rule = `${message.source ?? 'remark'}-${message.ruleId ?? 'unknown'}`
      byRule[rule] = (byRule[rule] ?? 0) + 1
      byFolder[where] = (byFolder[where] ?? 0) + 1
    }
  }
  return counts
}

/** Compare the preset's messages with `want` (`lint_with_the_preset`; `null` when none are expected); `lintCounts` is `lintCountsOf`'s promise. */
async function checkLint(name, lintCounts, want) {
  let counts
  try {
    counts = (await lintCounts).get(name)
  } catch (error) {
    check(name, 'lint with the preset', 'a JSON report', String(error.message).split('\n')[0])
    return
  }
  const {byRule, byFolder} = counts
  const named = Object.keys(want ?? {}).filter((key) => key.startsWith('remark-lint-'))
  for (const rule of named) check(name, `lint: ${rule}`, want[rule], byRule[rule] ?? 0)
  const others = Object.entries(byRule).filter(([rule]) => !named.includes(rule))
  check(
    name,
    'lint: any other rule',
    want?.['any other rule'] ?? 0,
    others.reduce((sum, [, count]) => sum + count, 0)
  )
  if (others.length > 0) say(`     other rules: ${JSON.stringify(Object.fromEntries(others))}`)
  for (const key of Object.keys(want ?? {})) {
    const on = /^messages on (.+)\/\*\.md$/.exec(key)
    if (on)
      check(
        name,
        `lint: ${key}`,
        want[key],
        Object.entries(byFolder)
          .filter(([where]) => where === on[1] || where.startsWith(on[1] + path.sep))
          .reduce((sum, [, count]) => sum + count, 0)
      )
  }
}

/**
 * Run the cli in `folder`, standard input a pipe as in CI, plain (`NO_COLOR`)
 * and outside GitHub's runner unless `env` says otherwise: exit code and both
 * streams, whatever the code. A throw of the cli is its crash: exit 1.
 */
async function runCli(folder, args, env = {GITHUB_ACTIONS: '', NO_COLOR: '1'}) {
  try {
    return await runTiersInProcess(folder, args, {env, terminal: false})
  } catch (error) {
    return {code: 1, stdout: '', stderr: String(error?.stack ?? error)}
  }
}

/**
 * A newcomer's first CI run: `tiers init --ci github` in a copy of the
 * project, then the workflow's lint command passes on the project folder
 * `dir`, and so does a tool project's `tiers verify --all`; after `addUnit`
 * adds a unit with nothing to check (naming itself `Late Addition`), the
 * lint fails, naming it.
 */
async function checkFirstCiRun(name, dir, addUnit, problems = 0) {
  const folder = await scratchCopy(name)
  try {
    // As a project that installed the tools: the preset resolves from its node_modules.
    await symlink(path.join(root, 'node_modules'), path.join(folder, 'node_modules'), 'dir')
    const init = await runCli(folder, ['init', '--ci', 'github'])
    check(name, 'tiers init --ci github exit', 0, init.code)
    const workflow = await readFile(path.join(folder, '.github/workflows/verification-tiers.yml'), 'utf8').catch(() => '')
    const lintLine = /run: npx tiers (lint .*)$/m.exec(workflow)?.[1]
    check(name, 'the workflow lints the project folder', true, Boolean(lintLine?.endsWith(` ${dir}`)))
    if (!lintLine) return
    const args = lintLine.split(' ')
    const first = await runCli(folder, args)
    check(name, 'the first CI lint passes', 0, first.code)
    // A Greenlight project's own slices are unverified here; a tool project's first run passes with no test command of its own, unless a person counted a true problem in it.
    if (dir !== '.greenlight' && /run: npx tiers verify --all$/m.test(workflow)) {
      const verify = await runCli(folder, ['verify', '--all'])
      const what =
        problems === 0
          ? 'the first CI verify --all passes'
          : `the first CI verify --all fails on the ${problems} problem${problems === 1 ? '' : 's'} a person counted`
      check(name, what, {code: problems === 0 ? 0 : 1, stderr: ''}, {code: verify.code, stderr: unexpectedWarnings(verify.stderr)})
    }
    await addUnit(path.join(folder, dir))
    const second = await runCli(folder, args)
    check(
      name,
      'a new warning fails the CI lint, naming it',
      {code: 1, names: true},
      {code: second.code, names: (second.stdout + second.stderr).includes('Late Addition')}
    )
  } finally {
    await rm(folder, {recursive: true, force: true})
  }
}

/** Write `text` to `file`, making its folders. */
async function writeUnit(file, text) {
  await mkdir(path.dirname(file), {recursive: true})
  await writeFile(file, text)
}

/** A writable copy of a corpus project in a temporary folder. */
async function scratchCopy(name) {
  const folder = await mkdtemp(path.join(os.tmpdir(), `tiers-corpus-${name}-`))
  await cp(path.join(corpus, name), folder, {recursive: true})
  await makeWritable(folder)
  return folder
}

async function makeWritable(target) {
  const info = await stat(target)
  await chmod(target, info.mode | 0o200 | (info.isDirectory() ? 0o100 : 0))
  if (info.isDirectory()) for (const entry of await readdir(target)) await makeWritable(path.join(target, entry))
}

/** Slice ids from `first` to `last` in the order `tiers status` lists them. */
function sliceRange(slices, key) {
  const range = /^(.+?)\s+to\s+(.+)$/i.exec(key)
  const ids = slices.map((slice) => slice.slice)
  if (!range) return [key]
  const from = ids.findIndex((id) => id.toLowerCase() === range[1].toLowerCase())
  const to = ids.findIndex((id) => id.toLowerCase() === range[2].toLowerCase())
  return from === -1 || to === -1 ? [key] : ids.slice(from, to + 1)
}

/** What `tiers status` says a slice is: `retired`, `no contracts` or its tier. */
function sliceTier(slice) {
  if (slice.retired) return 'retired'
  if (slice.contracts === 0 && !slice.humanCheck && slice.statedTier === null) return 'no contracts'
  return slice.tier
}

async function checkProject(name, want, lintCounts) {
  const folder = await scratchCopy(name)
  try {
    const contracts = await tiers(folder, ['contracts'])
    const status = await tiers(folder, ['status'])
    check(name, 'tiers contracts exit and stderr', {code: 0, stderr: ''}, {code: contracts.code, stderr: contracts.stderr})
    check(name, 'tiers status exit and stderr', {code: 0, stderr: ''}, {code: status.code, stderr: status.stderr})
    await checkLint(name, lintCounts, want.lint_with_the_preset ?? null)
    if (!contracts.data || !status.data) return
    const shown = contracts.data.contracts
    const summary = contracts.data.summary
    const slices = status.data.slices
    check(name, 'problems', [], contracts.data.problems ?? null)
    if ('contracts' in want) check(name, 'contracts', want.contracts, summary.contracts)
    if (want.tiers) {
      const written = {verify: summary.written.verify, auto: summary.written.auto, unset: summary.written.none}
      check(name, 'tiers as written', want.tiers, Object.fromEntries(Object.keys(want.tiers).map((key) => [key, written[key]])))
    }
    if ('criteria' in want) check(name, 'criteria of verify contracts', want.criteria, summary.criteria)
    if ('steps' in want) check(name, 'steps of verify contracts', want.steps, summary.steps)
    if ('slices' in want) check(name, 'slices', want.slices, slices.length + status.data.broken.length)
    if (Array.isArray(want.verify_contracts_without_steps)) {
      const without = shown.filter((contract) => contract.tierInSlice === 'verify' && contract.steps.length === 0).map((contract) => contract.name)
      check(name, 'verify contracts without steps', [...want.verify_contracts_without_steps].sort(), without.sort())
    }
    for (const [key, value] of Object.entries(want.slice_tiers ?? {})) {
      if (typeof value === 'number') {
        check(name, `slices of tier ${key}`, value, slices.filter((slice) => sliceTier(slice) === key).length)
      } else {
        const ids = sliceRange(slices, key)
        const got = ids.map((id) => slices.find((slice) => slice.slice.toLowerCase() === id.toLowerCase()))
        check(
          name,
          `tier of ${key}`,
          ids.map(() => value),
          got.map((slice) => (slice ? sliceTier(slice) : 'no such slice'))
        )
      }
    }
    for (const [key, sample] of Object.entries(want.samples ?? {})) {
      const slice = slices.find((one) => one.slice.toLowerCase() === key.toLowerCase())
      const contract = shown.find((one) => one.id === key || one.name === key)
      if (slice) {
        const verify = shown.filter((one) => one.slices.includes(slice.slice) && one.tierInSlice === 'verify').map((one) => one.name)
        const got = {criteria: slice.criteria, steps: slice.steps, contracts: verify.sort(), tier: slice.tier}
        check(
          name,
          `slice ${key}`,
          sample,
          pick(got, sample, (list) => [...list].sort())
        )
      } else if (contract) {
        const got = {tier: contract.tierInSlice, criteria: contract.criteria.length, steps: contract.steps.length, slice: contract.slices[0] ?? null}
        check(name, `contract ${key}`, sample, pick(got, sample))
      } else {
        check(name, `sample ${key}`, 'a contract or slice', 'not found')
      }
    }
  } finally {
    await rm(folder, {recursive: true, force: true})
  }
}

/** Of `got`, the keys `want` has, in its order (lists in `want` sorted by `sort`). */
function pick(got, want, sort = (list) => list) {
  for (const [key, value] of Object.entries(want)) if (Array.isArray(value)) want[key] = sort(value)
  return Object.fromEntries(Object.keys(want).map((key) => [key, got[key] ?? null]))
}

/** The sum of `count` over `list`. */
const sum = (list, count) => list.reduce((total, each) => total + count(each), 0)

/**
 * Projects of the other spec-driven tools: the folder `tiers` reads, and
 * for each figure of `expected.json` a person counted, what it is compared
 * with (`contracts` and `status` are the `--json` answers). A tool is one
 * row; a key the project's figures lack is not checked.
 */
const toolProjects = {
  'spec-kit': {
    folder: 'specs',
    addUnit: (dir) =>
      writeUnit(
        path.join(dir, '999-late', 'spec.md'),
        '# Feature Specification: Late\n\n## User Scenarios & Testing\n\n### User Story 1 - Late Addition (Priority: P1)\n\nNothing to check yet.\n'
      ),
    figures: {
      features: ['slices', ({status}) => status.slices.length],
      user_stories: ['contracts', ({contracts}) => contracts.summary.contracts],
      acceptance_scenarios: ['criteria', ({contracts}) => sum(contracts.contracts, (contract) => contract.criteria.length)],
      independent_test_lines: ['steps', ({contracts}) => sum(contracts.contracts, (contract) => contract.steps.length)],
      tasks: ['open tasks', ({status}) => sum(status.slices, (slice) => slice.openTasks), (tasks) => tasks.total - tasks.checked]
    }
  },
  openspec: {
    folder: 'openspec',
    addUnit: (dir) =>
      writeUnit(
        path.join(dir, 'changes', 'zz-late', 'specs', 'late', 'spec.md'),
        '## ADDED Requirements\n\n### Requirement: Late Addition\nThe system SHALL be late.\n'
      ),
    figures: {
      active_changes: ['slices', ({status}) => status.slices.length],
      // REMOVED and RENAMED requirements are shown, never verified: the contracts of the changes are the ADDED and MODIFIED ones.
      active_delta_requirements: [
        'contracts in changes',
        ({status}) => sum(status.slices, (slice) => slice.contracts),
        (counts) => counts.ADDED + counts.MODIFIED
      ],
      active_delta_scenarios: ['criteria', ({contracts}) => sum(contracts.contracts, (contract) => contract.criteria.length)],
      active_tasks: ['open tasks', ({status}) => sum(status.slices, (slice) => slice.openTasks), (tasks) => tasks.total - tasks.checked]
    }
  },
  kiro: {
    folder: '.kiro',
    addUnit: (dir) =>
      writeUnit(
        path.join(dir, 'specs', 'zz-late', 'requirements.md'),
        '# Requirements Document\n\n### Requirement 1: Late Addition\n\nNothing to check yet.\n'
      ),
    figures: {
      features: ['slices', ({status}) => status.slices.length],
      requirements: ['contracts', ({contracts}) => contracts.summary.contracts],
      acceptance_criteria: ['criteria', ({contracts}) => sum(contracts.contracts, (contract) => contract.criteria.length)],
      // A task in progress is not done; an optional one (`- [ ]*`) is shown apart and does not hold the slice.
      tasks: [
        'open tasks, optional tasks open',
        ({status}) => [sum(status.slices, (slice) => slice.openTasks), sum(status.slices, (slice) => slice.optionalTasks)],
        (tasks) => [tasks.unchecked + tasks.in_progress, tasks.optional_unchecked ?? 0]
      ]
    }
  }
}

/**
 * A project of another tool: `tiers` reads its folder with the problems a
 * person counted (`problems` in `expected.json`; none when it gives no
 * figure), and gives each figure a person counted.
 */
async function checkToolProject(name, want, tool, {folder: toolFolder, figures}) {
  const problems = want.problems ?? 0
  const folder = await scratchCopy(name)
  try {
    const contracts = await tiers(folder, ['contracts'], toolFolder)
    const status = await tiers(folder, ['status'], toolFolder)
    check(name, `${tool}: tiers contracts exit and stderr`, {code: 0, stderr: ''}, {code: contracts.code, stderr: contracts.stderr})
    check(name, `${tool}: tiers status exit and stderr`, {code: 0, stderr: ''}, {code: status.code, stderr: status.stderr})
    if (!contracts.data || !status.data) return
    check(name, `${tool}: problems`, problems, (contracts.data.problems ?? []).length)
    for (const [key, [what, got, wanted = (value) => value]] of Object.entries(figures)) {
      if (key in want) check(name, `${tool}: ${what} (${key})`, wanted(want[key]), got({contracts: contracts.data, status: status.data}))
    }
  } finally {
    await rm(folder, {recursive: true, force: true})
  }
}

/** Every check of one corpus project; `lintCounts`, `lintCountsOf`'s promise for the Greenlight projects. */
async function checkCorpusProject(name, want, lintCounts) {
  if (isGreenlightProject(name, want)) await checkProject(name, want, lintCounts)
  if (existsSync(path.join(corpus, name, '.greenlight'))) {
    if (existsSync(path.join(corpus, name, '.greenlight', 'CONTRACTS.md'))) {
      await checkFirstCiRun(name, '.greenlight', (dir) =>
        appendFile(path.join(dir, 'CONTRACTS.md'), '\n\n### ZZ-9999: Late Addition\n\n**Verification:** verify\n')
      )
    }
    return
  }
  const tool = Object.entries(toolProjects).find(([, row]) => existsSync(path.join(corpus, name, row.folder)))
  if (tool) {
    await checkToolProject(name, want, ...tool)
    await checkFirstCiRun(name, tool[1].folder, tool[1].addUnit, want.problems ?? 0)
  }
}

/** A project whose `.greenlight` folder `checkProject` compares with a person's counts. */
const isGreenlightProject = (name, want) => existsSync(path.join(corpus, name, '.greenlight')) && 'contracts' in want

const projects = Object.entries(expected).filter(([, want]) => typeof want === 'object' && want !== null)
const lintCounts = lintCountsOf(projects.filter(([name, want]) => isGreenlightProject(name, want)).map(([name]) => name))
// Each project that awaits it sees a failure; none is left unhandled meanwhile.
lintCounts.catch(() => {})
const outputs = projects.map(() => [])
let next = 0
await Promise.all(
  Array.from({length: Math.min(2, os.availableParallelism())}, async () => {
    for (let index = next++; index < projects.length; index = next++) {
      const [name, want] = projects[index]
      await projectLines.run(outputs[index], () => checkCorpusProject(name, want, lintCounts))
    }
  })
)
for (const lines of outputs) for (const line of lines) console.log(line)
console.log(`check-corpus: ${checks - failures} of ${checks} checks pass`)
process.exit(failures > 0 ? 1 : 0)
