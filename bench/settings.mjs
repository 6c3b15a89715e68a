// What reading a settings file costs every `tiers` process that reads one
// (the Stop hook runs at every agent stop): the CPU time of `tiers status` on
// the example project with its `config.json` and without it, a trimmed mean
// over many runs. CPU time, not wall time, so other work on the machine
// moves the figures less. Not a test: figures only.
import {spawnSync} from 'node:child_process'
import {cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const tiers = path.join(root, 'packages/cli/dist/bin.js')
const runs = Number(process.env.BENCH_RUNS ?? 40)
/** Runs left out at each end before the mean. */
const trim = Math.floor(runs / 10)

/** A module loaded before `tiers`: it writes the process's CPU time (user + system, in µs) where `BENCH_CPU_OUT` says, as the process exits. */
const preload = `import {writeFileSync} from 'node:fs'
process.on('exit', () => {
  const {user, system} = process.cpuUsage()
  writeFileSync(process.env.BENCH_CPU_OUT, String(user + system))
})
`

/** The CPU time, in ms, of one run of `args` in `cwd`. */
function cpu(dir, cwd, args) {
  const out = path.join(dir, 'cpu')
  const result = spawnSync(process.execPath, ['--import', path.join(dir, 'preload.mjs'), ...args], {
    cwd,
    encoding: 'utf8',
    env: {...process.env, BENCH_CPU_OUT: out}
  })
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`)
  return Number(readFileSync(out, 'utf8')) / 1000
}

/** Mean of `samples` less the `trim` smallest and largest. */
function trimmedMean(samples) {
  const kept = [...samples].sort((a, b) => a - b).slice(trim, samples.length - trim)
  return kept.reduce((sum, value) => sum + value, 0) / kept.length
}

export function benchSettings() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tiers-bench-settings-'))
  try {
    writeFileSync(path.join(dir, 'preload.mjs'), preload)
    const withConfig = path.join(dir, 'with')
    const without = path.join(dir, 'without')
    const source = path.join(root, 'content/examples/greenlight-project/.greenlight')
    cpSync(source, path.join(withConfig, '.greenlight'), {recursive: true, filter: (from) => path.basename(from) !== 'tiers'})
    cpSync(source, path.join(without, '.greenlight'), {recursive: true, filter: (from) => !['tiers', 'config.json'].includes(path.basename(from))})
    // Taken in turns, so a change in the machine's load moves all three alike.
    const samples = {node: [], config: [], noConfig: []}
    for (let i = 0; i < runs; i++) {
      samples.node.push(cpu(dir, dir, ['-e', '']))
      samples.config.push(cpu(dir, withConfig, [tiers, 'status']))
      samples.noConfig.push(cpu(dir, without, [tiers, 'status']))
    }
    const [node, configMs, noConfigMs] = [samples.node, samples.config, samples.noConfig].map(trimmedMean)
    return {name: 'tiers status, settings', runs, trim, nodeStartMs: node, configMs, noConfigMs, settingsMs: configMs - noConfigMs}
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ms = (value) => `${value.toFixed(1)} ms`
  const result = benchSettings()
  console.log(`tiers status on content/examples/greenlight-project, CPU time, mean of ${runs} runs less the ${trim} fastest and slowest:`)
  console.log(`  node start-up alone       ${ms(result.nodeStartMs)}`)
  console.log(`  with its config.json      ${ms(result.configMs)}`)
  console.log(`  without a config.json     ${ms(result.noConfigMs)}`)
  console.log(`  reading the settings      ${ms(result.settingsMs)}`)
  mkdirSync(path.join(root, 'bench/results'), {recursive: true})
  writeFileSync(path.join(root, 'bench/results/settings.json'), JSON.stringify(result, null, 2) + '\n')
}
