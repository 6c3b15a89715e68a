// Lint speed and memory, side by side in one run: parsing alone, parsing with
// the preset, the remark CLI with the preset, `tiers lint` (worker threads and
// on one thread), and markdownlint-cli2 with its defaults, over one generated
// contract corpus at 1x, 2x and 4x (4x: 2,000 files and a 2 MB file), to see
// the ratios and how time grows. Not a test: figures and ratios only.
import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, rmSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {writeCorpus} from './corpus.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name) => path.join(root, 'node_modules', '.bin', name)
// The 1x corpus (BENCH_SCALES=1,2,4 multiplies it: 4x is the 2,000-file corpus).
const baseFiles = Number(process.env.BENCH_FILES ?? 500)
const baseLarge = Number(process.env.BENCH_LARGE_CONTRACTS ?? 1500)
const hasTime = existsSync('/usr/bin/time')

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
  return {ms, peakKb: timed ? Number(timed[2]) : null, exitCode: result.status, worker: worker ? JSON.parse(worker[0]) : null}
}

function corpus(scale) {
  // Inside the repo, so the remark CLI finds the preset in node_modules.
  const dir = path.join(root, 'bench', `.corpus-${scale}x`)
  rmSync(dir, {recursive: true, force: true})
  const {paths, bytes} = writeCorpus(dir, {files: baseFiles * scale, largeContracts: baseLarge * scale})
  return {dir, files: paths.length, bytes}
}

const parseAlone = 'parse alone (remark-parse + remark-frontmatter)'
const presetInProcess = 'parse + preset (in process)'
const remarkCli = 'remark CLI + preset'
const markdownlint = 'markdownlint-cli2 (defaults)'
const tiersLint = 'tiers lint (preset)'
const tiersLintOneThread = 'tiers lint --threads 1'

const tools = {
  [parseAlone]: (dir) => measure(process.execPath, [path.join(root, 'bench/lint-worker.mjs'), 'parse', dir], dir),
  [presetInProcess]: (dir) => measure(process.execPath, [path.join(root, 'bench/lint-worker.mjs'), 'preset', dir], dir),
  [remarkCli]: (dir) => measure(bin('remark'), ['--no-config', '--no-ignore', '--quiet', '--use', 'remark-preset-lint-verification-tiers', '.'], dir),
  // Without a configuration, `tiers lint` runs the same preset.
  [tiersLint]: (dir) => measure(process.execPath, [bin('tiers'), 'lint', '--no-config', '--no-ignore', '--quiet', '.'], dir),
  [tiersLintOneThread]: (dir) => measure(process.execPath, [bin('tiers'), 'lint', '--no-config', '--no-ignore', '--quiet', '--threads', '1', '.'], dir),
  [markdownlint]: (dir) => measure(bin('markdownlint-cli2'), ['**/*.md'], dir)
}

const rows = []
const row = (tool, scale, data, result) => {
  const seconds = result.ms / 1000
  rows.push({
    tool,
    scale,
    files: data.files,
    mb: data.bytes / 1e6,
    ms: result.ms,
    filesPerSecond: data.files / seconds,
    mbPerSecond: data.bytes / 1e6 / seconds,
    peakMb: result.peakKb === null ? null : result.peakKb / 1024,
    // In-process split of the preset run: parsing, and the preset's transformers.
    parseMs: result.worker?.parseMs ?? null,
    runMs: result.worker?.runMs ?? null
  })
}

const scales = (process.env.BENCH_SCALES ?? '1,2,4').split(',').map(Number)
for (const scale of scales) {
  const data = corpus(scale)
  for (const [tool, run] of Object.entries(tools)) {
    if (tool === markdownlint && !existsSync(bin('markdownlint-cli2'))) continue
    row(tool, scale, data, run(data.dir))
  }
  rmSync(data.dir, {recursive: true, force: true})
}

const find = (tool, scale) => rows.find((entry) => entry.tool === tool && entry.scale === scale)
const ratio = (left, right) => (left && right ? left / right : null)
const ratios = {}
for (const scale of scales) {
  const at = (tool) => find(tool, scale)
  ratios[scale + 'x'] = {
    presetOverParseTime: ratio(at(presetInProcess)?.ms, at(parseAlone)?.ms),
    // The same, measured inside the preset's process: (parse + transformers) / parse.
    presetOverParseInProcess: ratio((at(presetInProcess)?.parseMs ?? 0) + (at(presetInProcess)?.runMs ?? 0), at(presetInProcess)?.parseMs),
    presetOverParsePeakMemory: ratio(at(presetInProcess)?.peakMb, at(parseAlone)?.peakMb),
    remarkCliOverMarkdownlint: ratio(at(remarkCli)?.ms, at(markdownlint)?.ms),
    tiersLintOverMarkdownlint: ratio(at(tiersLint)?.ms, at(markdownlint)?.ms),
    tiersLintOverRemarkCli: ratio(at(tiersLint)?.ms, at(remarkCli)?.ms)
  }
}
const first = scales[0]
const growth = {}
for (const tool of Object.keys(tools)) {
  growth[tool] = Object.fromEntries(scales.slice(1).map((scale) => [scale + 'x', ratio(find(tool, scale)?.ms, find(tool, first)?.ms)]))
}
growth['the preset’s transformers alone'] = Object.fromEntries(
  scales.slice(1).map((scale) => [scale + 'x', ratio(find(presetInProcess, scale)?.runMs, find(presetInProcess, first)?.runMs)])
)

const pad = (value, width) => String(value).padEnd(width)
const fixed = (value, digits = 2) => (value === null || value === undefined ? 'n/a' : value.toFixed(digits))
console.log(`${pad('tool', 48)}${pad('scale', 7)}${pad('files', 8)}${pad('MB', 7)}${pad('wall s', 9)}${pad('files/s', 10)}${pad('MB/s', 8)}peak MB`)
for (const entry of rows) {
  console.log(`${pad(entry.tool, 48)}${pad(entry.scale + 'x', 7)}${pad(entry.files, 8)}${pad(entry.mb.toFixed(1), 7)}${pad((entry.ms / 1000).toFixed(2), 9)}${pad(entry.filesPerSecond.toFixed(0), 10)}${pad(entry.mbPerSecond.toFixed(2), 8)}${entry.peakMb === null ? 'n/a' : entry.peakMb.toFixed(0)}`)
}
console.log('')
for (const [scale, each] of Object.entries(ratios)) {
  console.log(`${scale}: preset / parse alone: time ${fixed(each.presetOverParseTime, 3)}x, in one process ${fixed(each.presetOverParseInProcess, 3)}x (target ≤ 1.10), peak memory ${fixed(each.presetOverParsePeakMemory, 3)}x (target ≤ 1.10)`)
  console.log(`${scale}: tiers lint / markdownlint-cli2: ${fixed(each.tiersLintOverMarkdownlint)}x, tiers lint / remark CLI: ${fixed(each.tiersLintOverRemarkCli)}x (target ≤ 0.50 each); remark CLI / markdownlint-cli2: ${fixed(each.remarkCliOverMarkdownlint)}x`)
}
for (const [tool, each] of Object.entries(growth)) {
  console.log(`time growth of ${tool}: ${Object.entries(each).map(([scale, value]) => `${scale} ${fixed(value)}x`).join(', ')} (linear: ${scales.slice(1).map((scale) => scale / first).join(' and ')})`)
}
mkdirSync(path.join(root, 'bench/results'), {recursive: true})
writeFileSync(path.join(root, 'bench/results/lint.json'), JSON.stringify({date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, rows, ratios, growth}, null, 2) + '\n')
