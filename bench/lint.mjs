// Lint speed and memory, side by side in one run: parsing alone, parsing with
// the preset, the remark CLI with the preset, and markdownlint-cli2 with its
// defaults, over one generated contract corpus; then the preset at 1x, 2x and
// 4x the corpus to see how time grows. Not a test: figures and ratios only.
import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, rmSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {writeCorpus} from './corpus.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name) => path.join(root, 'node_modules', '.bin', name)
// The 1x corpus; BENCH_FILES=2000 gives the full-size one (its 4x run needs several GB and many minutes).
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

const tools = {
  'parse alone (remark-parse + remark-frontmatter)': (dir) => measure(process.execPath, [path.join(root, 'bench/lint-worker.mjs'), 'parse', dir], dir),
  'parse + preset (in process)': (dir) => measure(process.execPath, [path.join(root, 'bench/lint-worker.mjs'), 'preset', dir], dir),
  'remark CLI + preset': (dir) => measure(bin('remark'), ['--no-config', '--no-ignore', '--quiet', '--use', 'remark-preset-lint-verification-tiers', '.'], dir),
  'markdownlint-cli2 (defaults)': (dir) => measure(bin('markdownlint-cli2'), ['**/*.md'], dir)
}

const rows = []
const row = (tool, scale, data, result) => {
  const seconds = result.ms / 1000
  rows.push({tool, scale, files: data.files, mb: data.bytes / 1e6, ms: result.ms, filesPerSecond: data.files / seconds, mbPerSecond: data.bytes / 1e6 / seconds, peakMb: result.peakKb === null ? null : result.peakKb / 1024})
}

const one = corpus(1)
for (const [tool, run] of Object.entries(tools)) {
  if (tool.startsWith('markdownlint') && !existsSync(bin('markdownlint-cli2'))) continue
  row(tool, 1, one, run(one.dir))
}
for (const scale of [2, 4]) {
  const data = corpus(scale)
  for (const tool of ['parse alone (remark-parse + remark-frontmatter)', 'parse + preset (in process)']) row(tool, scale, data, tools[tool](data.dir))
  rmSync(data.dir, {recursive: true, force: true})
}
rmSync(one.dir, {recursive: true, force: true})

const find = (tool, scale = 1) => rows.find((entry) => entry.tool === tool && entry.scale === scale)
const parse = find('parse alone (remark-parse + remark-frontmatter)')
const preset = find('parse + preset (in process)')
const cli = find('remark CLI + preset')
const markdownlint = find('markdownlint-cli2 (defaults)')
const ratios = {
  presetOverParseTime: preset.ms / parse.ms,
  presetOverParsePeakMemory: preset.peakMb && parse.peakMb ? preset.peakMb / parse.peakMb : null,
  remarkCliOverMarkdownlint: markdownlint ? cli.ms / markdownlint.ms : null,
  presetTimeAt2x: find('parse + preset (in process)', 2).ms / preset.ms,
  presetTimeAt4x: find('parse + preset (in process)', 4).ms / preset.ms
}

const pad = (value, width) => String(value).padEnd(width)
console.log(`${pad('tool', 48)}${pad('scale', 7)}${pad('files', 8)}${pad('MB', 7)}${pad('wall s', 9)}${pad('files/s', 10)}${pad('MB/s', 8)}peak MB`)
for (const entry of rows) {
  console.log(`${pad(entry.tool, 48)}${pad(entry.scale + 'x', 7)}${pad(entry.files, 8)}${pad(entry.mb.toFixed(1), 7)}${pad((entry.ms / 1000).toFixed(2), 9)}${pad(entry.filesPerSecond.toFixed(0), 10)}${pad(entry.mbPerSecond.toFixed(2), 8)}${entry.peakMb === null ? 'n/a' : entry.peakMb.toFixed(0)}`)
}
console.log('')
console.log(`preset / parse alone: time ${ratios.presetOverParseTime.toFixed(3)}x (target ≤ 1.10), peak memory ${ratios.presetOverParsePeakMemory?.toFixed(3) ?? 'n/a'}x (target ≤ 1.10)`)
console.log(`remark CLI + preset / markdownlint-cli2: ${ratios.remarkCliOverMarkdownlint?.toFixed(2) ?? 'n/a'}x`)
console.log(`preset time at 2x: ${ratios.presetTimeAt2x.toFixed(2)}x, at 4x: ${ratios.presetTimeAt4x.toFixed(2)}x (linear: 2 and 4)`)
mkdirSync(path.join(root, 'bench/results'), {recursive: true})
writeFileSync(path.join(root, 'bench/results/lint.json'), JSON.stringify({date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, rows, ratios}, null, 2) + '\n')
