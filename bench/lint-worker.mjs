// Runs in its own process: parse every markdown file under a folder with
// three pipelines and print, as JSON, what each costs and what the rules add:
// - `parse`: remark-parse + remark-frontmatter;
// - `remark-lint`: the same and remark-lint (its message control, no rules);
// - `preset`: remark-parse + the verification-tiers preset (which brings
//   remark-frontmatter, remark-lint and the contract rules).
// The three run in one process, in rounds: each round runs every pipeline
// once over all the files, in an order that turns round to round (ABC, BCA,
// CAB), each pass after a full collection (with `--expose-gc`), so that no
// pass pays for the garbage of the one before. A full collection also makes
// V8 drop compiled code (on greenlight, about a hundred functions are
// compiled again in each pass, the parser's and the rules' alike), so each
// pass runs as a CLI's one pass over a folder does: from cold code, not from
// code compiled by the passes before. A round gives ratios
// (preset / remark-lint, remark-lint / parse); the figures are the median of
// the per-round ratios, with their quartiles and extremes as the spread: a
// burst of load on a shared machine spoils a round, not the median.
// The clock is the main thread's CPU time (Linux; the process's elsewhere):
// the pipelines run there, and with `--single-threaded-gc` so does the
// collector, while the compiler's background threads, which the process's
// CPU time also counts, work for any pass alike. Process CPU and wall times
// are reported beside it. Measured on a busy two-core machine, these
// choices took the quartiles of the ratio from ±15% (wall time, no
// collection between passes) to about ±3%.
// Besides the whole pass, each run (what the plugins do after parsing) is
// timed on its own: the preset and remark-lint alone parse alike, so what
// the preset's run adds, over remark-lint's whole pass, is what its rules
// cost, without the parse's own spread from pass to pass (most of a pass,
// and most of the whole-pass ratio's spread on a busy machine).
// With BENCH_BASELINE naming another built checkout, a fourth pipeline,
// `baseline`, runs that checkout's preset in the same rounds: a change's
// before and after, side by side in one run.
// Usage: node --expose-gc --single-threaded-gc bench/lint-worker.mjs <dir> [min rounds] [seconds]
// Rounds go on until both `min rounds` and `seconds` are reached (or four
// times `seconds` have passed, and at least five rounds: a large corpus).
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import remarkFrontmatter from 'remark-frontmatter'
import remarkLint from 'remark-lint'
import remarkParse from 'remark-parse'
import remarkPresetLintVerificationTiers from 'remark-preset-lint-verification-tiers'
import {unified} from 'unified'
import {VFile} from 'vfile'

const [dir, minRoundsArgument = '30', secondsArgument = '20'] = process.argv.slice(2)
const minRounds = Number(minRoundsArgument)
const budgetMs = Number(secondsArgument) * 1000
const maxRounds = 400
const collect = typeof globalThis.gc === 'function' ? globalThis.gc : null

const pipelines = {
  parse: unified().use(remarkParse).use(remarkFrontmatter).freeze(),
  'remark-lint': unified().use(remarkParse).use(remarkFrontmatter).use(remarkLint).freeze(),
  preset: unified().use(remarkParse).use(remarkPresetLintVerificationTiers).freeze()
}
if (process.env.BENCH_BASELINE) {
  const entry = path.resolve(process.env.BENCH_BASELINE, 'packages/remark-preset-lint-verification-tiers/dist/index.js')
  const {default: baselinePreset} = await import(pathToFileURL(entry).href)
  pipelines.baseline = unified().use(remarkParse).use(baselinePreset).freeze()
}
const names = Object.keys(pipelines)
const files = readdirSync(dir, {recursive: true})
  .filter((file) => /\.(md|markdown)$/i.test(file))
  .sort()
  .map((file) => ({path: path.join(dir, file), value: readFileSync(path.join(dir, file), 'utf8')}))

/** CPU time of this process so far (every thread: the collector's and the compiler's too), in milliseconds. */
function cpuMs() {
  const {user, system} = process.cpuUsage()
  return (user + system) / 1000
}

// The main thread's own CPU time, where Linux tells it: the pipelines run
// there, while the collector's and the compiler's background threads, which
// also count in `cpuMs`, work on whatever ran before as much as on this.
const mainThreadStat = `/proc/self/task/${process.pid}/schedstat`
function mainThreadMs() {
  try {
    return Number(readFileSync(mainThreadStat, 'utf8').split(' ')[0]) / 1e6
  } catch {
    return Number.NaN
  }
}

/**
 * One pass of `processor` over every file, after a collection; besides the
 * whole pass, the main thread's time in its runs alone (what the plugins do
 * after parsing), read before and after each file's run.
 */
async function pass(processor) {
  if (collect) collect()
  const wallStart = performance.now()
  const cpuStart = cpuMs()
  const threadStart = mainThreadMs()
  let runThreadMs = 0
  let messages = 0
  for (const file of files) {
    const vfile = new VFile(file)
    const tree = processor.parse(vfile)
    const runStart = mainThreadMs()
    await processor.run(tree, vfile)
    runThreadMs += mainThreadMs() - runStart
    messages += vfile.messages.length
  }
  return {threadMs: mainThreadMs() - threadStart, runThreadMs, cpuMs: cpuMs() - cpuStart, wallMs: performance.now() - wallStart, messages}
}

/** One round: every pipeline once over every file, starting at the `turn`-th. */
async function round(turn) {
  const result = {}
  for (let index = 0; index < names.length; index++) {
    const name = names[(index + turn) % names.length]
    result[name] = await pass(pipelines[name])
  }
  return result
}

// Warm-up: the JIT settles over a few passes; these rounds are not kept.
const warmStart = performance.now()
for (let turn = 0; turn < 2 || (turn < 5 && performance.now() - warmStart < 3000); turn++) await round(turn)

const rounds = []
const start = performance.now()
function enough() {
  const elapsed = performance.now() - start
  if (rounds.length >= maxRounds) return true
  if (rounds.length >= 5 && elapsed >= 4 * budgetMs) return true
  return rounds.length >= minRounds && elapsed >= budgetMs
}
while (!enough()) rounds.push(await round(rounds.length))

const sorted = (values) => [...values].sort((a, b) => a - b)
/** The value at quantile `q` of sorted `values`, interpolated. */
function quantile(values, q) {
  const at = (values.length - 1) * q
  const low = Math.floor(at)
  const high = Math.ceil(at)
  return values[low] + (values[high] - values[low]) * (at - low)
}
/** Median, quartiles and extremes of `values`. */
function spread(values) {
  const ordered = sorted(values)
  return {median: quantile(ordered, 0.5), q1: quantile(ordered, 0.25), q3: quantile(ordered, 0.75), min: ordered[0], max: ordered.at(-1)}
}
const clocks = {thread: 'threadMs', cpu: 'cpuMs', wall: 'wallMs'}
/** The spread of the per-round ratio `top` / `bottom`, on each clock. */
const ratioOf = (top, bottom) =>
  Object.fromEntries(Object.entries(clocks).map(([clock, key]) => [clock, spread(rounds.map((each) => each[top][key] / each[bottom][key]))]))

/**
 * What `top`'s run adds to `bottom`'s whole pass, over the rounds: the
 * difference of the two runs (the plugins beyond `bottom`'s), over
 * `bottom`'s pass. Both parse alike, so the parse's own spread, which is
 * most of a pass, is left out. The main thread's clock moves in scheduler
 * ticks (4 ms here): one run reads several ticks short or long, at random,
 * so the figure is the mean of the rounds (the tenth at each end left out),
 * not their median.
 */
function runAdds(top, bottom) {
  const values = sorted(rounds.map((each) => (each[top].runThreadMs - each[bottom].runThreadMs) / each[bottom].threadMs))
  const cut = Math.floor(values.length / 10)
  const kept = values.slice(cut, values.length - cut)
  return {mean: kept.reduce((sum, value) => sum + value, 0) / kept.length, ...spread(values)}
}

const pipelineFigures = {}
for (const name of names) {
  const times = Object.fromEntries(Object.entries(clocks).map(([clock, key]) => [clock, spread(rounds.map((each) => each[name][key]))]))
  // `ms` (the fastest time, main thread) is what bench/lint.mjs's table shows.
  pipelineFigures[name] = {ms: times.thread.min, ...times, messages: rounds[0][name].messages}
}
process.stdout.write(
  JSON.stringify({
    files: files.length,
    rounds: rounds.length,
    gc: collect !== null,
    best: pipelineFigures,
    ratios: {
      presetOverRemarkLint: ratioOf('preset', 'remark-lint'),
      remarkLintOverParse: ratioOf('remark-lint', 'parse'),
      presetOverParse: ratioOf('preset', 'parse'),
      presetRunAddsToRemarkLint: runAdds('preset', 'remark-lint'),
      ...(pipelines.baseline && {baselineOverRemarkLint: ratioOf('baseline', 'remark-lint'), presetOverBaseline: ratioOf('preset', 'baseline')})
    },
    maxRssKb: process.resourceUsage().maxRSS
  }) + '\n'
)
