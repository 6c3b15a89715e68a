// Lint speed and memory, side by side in one run, on real markdown:
// (a) every markdown file under node_modules (readmes and changelogs no one
// here wrote), (b) the `.greenlight/` of each real project of
// ../shared/corpus, whole and its contract files alone (where the preset's
// target is), and another when BENCH_PROJECT names one, (c) this
// repository's large contract fixture.
// Tools: the remark CLI with the preset, `tiers lint` (cold, and warm with
// `--cache`), markdownlint-cli2 with its defaults; and, in one process, the
// parser alone, the parser with remark-lint alone, and the parser with the
// preset, to see what the preset's own rules cost: as the ratio of whole
// passes, and as what the preset's run adds to remark-lint's pass (the runs
// timed alone, which leaves the parse's spread out). The CLIs run in turns,
// `BENCH_ROUNDS` rounds (default 3), each keeping its median. Not a test:
// figures and ratios only.
import {spawnSync} from 'node:child_process'
import {chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {projectFolderOf} from '@verification-tiers/lint-rule'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name) => path.join(root, 'node_modules', '.bin', name)
const hasTime = existsSync('/usr/bin/time')
// In-process runs go round by round, at least this many rounds and this many seconds (see bench/lint-worker.mjs).
const repeats = Number(process.env.BENCH_REPEATS ?? 30)
const inProcessSeconds = Number(process.env.BENCH_SECONDS ?? 20)

/** Run a command; wall time from outside, peak memory from /usr/bin/time when there is one. */
function measure(command, args, cwd) {
  const wrapped = hasTime ? ['/usr/bin/time', ['-f', '__time %e %M', command, ...args]] : [command, args]
  const start = performance.now()
  const result = spawnSync(wrapped[0], wrapped[1], {cwd, encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024})
  const ms = performance.now() - start
  if (result.error) throw result.error
  // Linters exit 1 on findings; anything else means the run did not happen.
  if (result.status !== 0 && result.status !== 1) throw new Error(`${command} exited ${result.status}: ${result.stderr.slice(-2000)}`)
  if (/Cannot (find|process)/.test(result.stderr)) throw new Error(`${command} failed: ${result.stderr.slice(-2000)}`)
  const timed = /__time ([\d.]+) (\d+)/.exec(result.stderr ?? '')
  const worker = /^\{.*\}$/m.exec(result.stdout ?? '')
  return {ms, peakKb: timed ? Number(timed[2]) : null, worker: worker ? JSON.parse(worker[0]) : null}
}

/** Markdown files below `folder`, not below a `.cache`. */
function markdownBelow(folder) {
  return readdirSync(folder, {recursive: true})
    .filter((file) => /\.(md|markdown)$/i.test(file) && !file.split(path.sep).includes('.cache'))
    .filter((file) => statSync(path.join(folder, file)).isFile())
}

/** Copy `from` to `to`, every copy writable by its owner (the corpus is read-only, and its copy is removed after). */
function writableCopy(from, to) {
  cpSync(from, to, {recursive: true})
  for (const file of [to, ...readdirSync(to, {recursive: true}).map((entry) => path.join(to, entry))]) chmodSync(file, statSync(file).mode | 0o200)
}

/** A corpus folder inside the repository (so the CLIs find the preset in node_modules), filled by `fill`. */
function corpus(name, fill) {
  const dir = path.join(root, 'bench', `.corpus-${name}`)
  rmSync(dir, {recursive: true, force: true})
  mkdirSync(dir, {recursive: true})
  fill(dir)
  const files = markdownBelow(dir)
  const bytes = files.reduce((sum, file) => sum + statSync(path.join(dir, file)).size, 0)
  return {name, dir, files: files.length, bytes}
}

const corpora = [
  corpus('node-modules', (dir) => {
    const from = path.join(root, 'node_modules')
    // Flattened, so that no `node_modules` folder (which linters skip) is in the path.
    for (const file of markdownBelow(from)) copyFileSync(path.join(from, file), path.join(dir, file.split(path.sep).join('__')))
  }),
  corpus('large-fixture', (dir) => {
    copyFileSync(path.join(root, 'test/fixtures/large-contracts.md'), path.join(dir, 'CONTRACTS.md'))
    cpSync(path.join(root, 'content/examples/greenlight-project/.greenlight'), path.join(dir, 'greenlight'), {recursive: true})
  })
]
/**
 * A project's contract files alone (its `CONTRACTS.md`, the markdown under
 * its `contracts/` folders: the files the gate reads contracts from), with
 * its graph beside them so that the rules read them as in the project.
 */
function contractFilesOf(greenlight, dir) {
  const to = path.join(dir, 'greenlight')
  const graphs = ['GRAPH.json', 'GRAPH.md'].filter((file) => existsSync(path.join(greenlight, file)))
  for (const file of [...markdownBelow(greenlight).filter((each) => projectFolderOf({cwd: greenlight, path: each}) !== null), ...graphs]) {
    mkdirSync(path.dirname(path.join(to, file)), {recursive: true})
    copyFileSync(path.join(greenlight, file), path.join(to, file))
    chmodSync(path.join(to, file), 0o644)
  }
}

// The real projects of ../shared/corpus with a `.greenlight` folder, when it is there: the whole folder
// (summaries, decisions, codebase notes besides the contracts), and its contract files alone.
const shared = path.join(root, '..', 'shared', 'corpus')
if (existsSync(shared)) {
  for (const name of readdirSync(shared).sort()) {
    const greenlight = path.join(shared, name, '.greenlight')
    if (!existsSync(greenlight)) continue
    corpora.splice(
      corpora.length - 1,
      0,
      corpus(`corpus-${name}`, (dir) => writableCopy(greenlight, path.join(dir, 'greenlight')))
    )
    corpora.splice(corpora.length - 1, 0, {...corpus(`corpus-${name}-contracts`, (dir) => contractFilesOf(greenlight, dir)), contractFiles: true})
  }
}
if (process.env.BENCH_PROJECT) {
  const greenlight = path.join(path.resolve(process.env.BENCH_PROJECT), '.greenlight')
  corpora.splice(
    1,
    0,
    corpus('project', (dir) => cpSync(greenlight, path.join(dir, 'greenlight'), {recursive: true}))
  )
}

// The three in-process pipelines run in one process, in rounds; their rows share that run, and so do their ratios.
const inProcessRuns = new Map()
const workerRun = (dir) => {
  if (!inProcessRuns.has(dir)) {
    const args = ['--expose-gc', '--single-threaded-gc', path.join(root, 'bench/lint-worker.mjs'), dir, String(repeats), String(inProcessSeconds)]
    inProcessRuns.set(dir, measure(process.execPath, args, dir).worker)
  }
  return inProcessRuns.get(dir)
}
// The median time of the pipeline's passes (main thread).
const inProcess = (mode) => (dir) => ({ms: workerRun(dir).best[mode].thread.median, peakKb: null})
const tiers =
  (...args) =>
  (dir) =>
    measure(process.execPath, [bin('tiers'), 'lint', '--no-config', '--no-ignore', '--quiet', ...args, '.'], dir)

const parseAlone = 'parse alone (remark-parse + remark-frontmatter), in process'
const lintAlone = 'parse + remark-lint alone, in process'
const presetInProcess = 'parse + preset, in process'
const remarkCli = 'remark CLI + preset'
const tiersCold = 'tiers lint (preset)'
const tiersWarm = 'tiers lint --cache, warm'
const markdownlint = 'markdownlint-cli2 (defaults)'

const tools = {
  [parseAlone]: inProcess('parse'),
  [lintAlone]: inProcess('remark-lint'),
  [presetInProcess]: inProcess('preset'),
  [remarkCli]: (dir) => measure(bin('remark'), ['--no-config', '--no-ignore', '--quiet', '--use', 'remark-preset-lint-verification-tiers', '.'], dir),
  // Without a configuration, `tiers lint` runs the same preset.
  [tiersCold]: tiers(),
  [tiersWarm]: (dir) => {
    const cache = ['--cache-location', path.join(dir, '.lint-cache')]
    tiers(...cache)(dir)
    return tiers(...cache)(dir)
  },
  [markdownlint]: (dir) => measure(bin('markdownlint-cli2'), ['**/*.md'], dir)
}

// The CLIs run in turns, round after round, and each keeps its median: a
// burst of load on a shared machine then costs every tool alike, once.
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

const rows = []
for (const data of corpora) {
  const runs = new Map(Object.keys(tools).map((tool) => [tool, []]))
  for (let round = 0; round < rounds; round++) {
    for (const [tool, run] of Object.entries(tools)) {
      // In-process pipelines repeat inside their own run.
      if (round > 0 && tool.endsWith('in process')) continue
      runs.get(tool).push(run(data.dir))
    }
  }
  for (const [tool, results] of runs) {
    const peaks = results.map((result) => result.peakKb).filter((kb) => kb !== null)
    rows.push({
      tool,
      corpus: data.name,
      files: data.files,
      mb: data.bytes / 1e6,
      // In process: the pipeline's own time, without starting Node.
      ms: median(results.map((result) => result.ms)),
      peakMb: peaks.length === 0 ? null : Math.max(...peaks) / 1024
    })
  }
  rmSync(data.dir, {recursive: true, force: true})
}

const find = (tool, name) => rows.find((entry) => entry.tool === tool && entry.corpus === name)
const ratio = (left, right) => (left && right ? left / right : null)
const ratios = {}
for (const {name, dir} of corpora) {
  const ms = (tool) => find(tool, name)?.ms
  // In process: the median of the per-round ratios, with its spread (quartiles, extremes).
  const worker = inProcessRuns.get(dir)?.ratios
  ratios[name] = {
    presetOverRemarkLint: worker?.presetOverRemarkLint.thread.median ?? null,
    presetOverRemarkLintSpread: worker?.presetOverRemarkLint.thread ?? null,
    remarkLintOverParse: worker?.remarkLintOverParse.thread.median ?? null,
    // What the preset's run adds to remark-lint's whole pass, from the runs alone (see bench/lint-worker.mjs).
    presetRunAddsToRemarkLint: worker?.presetRunAddsToRemarkLint?.mean ?? null,
    inProcessRounds: inProcessRuns.get(dir)?.rounds ?? null,
    tiersLintOverRemarkCli: ratio(ms(tiersCold), ms(remarkCli)),
    tiersLintWarmOverRemarkCli: ratio(ms(tiersWarm), ms(remarkCli)),
    remarkCliOverMarkdownlint: ratio(ms(remarkCli), ms(markdownlint))
  }
}

const spreadOf = (spread) => (spread ? `${fixed(spread.q1, 3)}–${fixed(spread.q3, 3)}, extremes ${fixed(spread.min, 3)}–${fixed(spread.max, 3)}` : 'n/a')
const pad = (value, width) => String(value).padEnd(width)
const percent = (value) => (value === null || value === undefined || Number.isNaN(value) ? 'n/a' : `${(value * 100).toFixed(1)}%`)
const fixed = (value, digits = 2) => (value === null || value === undefined ? 'n/a' : value.toFixed(digits))
console.log(`${pad('tool', 62)}${pad('corpus', 28)}${pad('files', 7)}${pad('MB', 6)}${pad('s', 7)}peak MB`)
for (const entry of rows) {
  console.log(
    `${pad(entry.tool, 62)}${pad(entry.corpus, 28)}${pad(entry.files, 7)}${pad(entry.mb.toFixed(2), 6)}${pad((entry.ms / 1000).toFixed(2), 7)}${entry.peakMb === null ? 'n/a' : entry.peakMb.toFixed(0)}`
  )
}
console.log('')
for (const [name, each] of Object.entries(ratios)) {
  // The preset's target is on contract files, where its rules have contracts to read; elsewhere the ratio is shown as measured.
  const target = corpora.find((data) => data.name === name)?.contractFiles ? 'target ≤ 1.05; ' : ''
  console.log(
    `${name}: preset / remark-lint alone ${fixed(each.presetOverRemarkLint, 3)}x (${target}quartiles ${spreadOf(each.presetOverRemarkLintSpread)}, ${each.inProcessRounds} rounds); ` +
      `the preset's run adds ${percent(each.presetRunAddsToRemarkLint)} to remark-lint's pass; remark-lint / parse ${fixed(each.remarkLintOverParse, 3)}x; ` +
      `tiers lint / remark CLI: cold ${fixed(each.tiersLintOverRemarkCli)}x, warm cache ${fixed(each.tiersLintWarmOverRemarkCli)}x (target ≤ 0.10); remark CLI / markdownlint-cli2 ${fixed(each.remarkCliOverMarkdownlint)}x`
  )
}
mkdirSync(path.join(root, 'bench/results'), {recursive: true})
writeFileSync(
  path.join(root, 'bench/results/lint.json'),
  JSON.stringify({date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, rows, ratios}, null, 2) + '\n'
)
