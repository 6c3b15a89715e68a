// Cold-start time of `tiers checkpoint` on a contract file of several thousand
// lines, beside plain `node` start-up as the floor. Not a test: figures only.
import {spawnSync} from 'node:child_process'
import {chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const tiers = path.join(root, 'packages/cli/dist/bin.js')
const runs = Number(process.env.BENCH_RUNS ?? 15)

/** A deterministic CONTRACTS.md: `slices` slices of six contracts in the three markdown dialects. */
export function contractCorpus(slices) {
  const lines = ['# CONTRACTS.md -- generated for the benchmark', '']
  let n = 0
  for (let s = 1; s <= slices; s++) {
    const slice = `S-${String(s).padStart(3, '0')}`
    lines.push(`## ${slice}: Slice ${s}`, '')
    for (let c = 0; c < 6; c++) {
      const id = `C-${String(++n).padStart(4, '0')}`
      const tier = c % 3 === 0 ? 'auto' : 'verify'
      if (c % 3 === 2) {
        lines.push(
          `### ${id}: Block${n}`,
          '',
          '```',
          `Contract: Block${n}`,
          `Slice: ${slice}`,
          `Verification: ${tier}`,
          'Acceptance Criteria:',
          `  - Block ${n} shows its total`,
          `  - Block ${n} sorts by date`,
          'Steps:',
          `  - Open /blocks/${n}`,
          '```',
          ''
        )
      } else {
        lines.push(
          `### ${id}: Card${n}`,
          '',
          `**Boundary:** Card${n} component -> rendered card`,
          `**Slice:** ${slice}`,
          `**Verification:** ${tier}`,
          '**Acceptance Criteria:**',
          `- Card ${n} shows the name`,
          `- Card ${n} shows the status -- verified by: \`true\``,
          '',
          '**Steps:**',
          `1. Open /cards/${n}`,
          ''
        )
      }
    }
  }
  return lines.join('\n')
}

function time(command, args, options) {
  const samples = []
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint()
    const result = spawnSync(command, args, {...options, encoding: 'utf8'})
    const ms = Number(process.hrtime.bigint() - start) / 1e6
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`)
    samples.push(ms)
  }
  samples.sort((a, b) => a - b)
  return {median: samples[Math.floor(samples.length / 2)], min: samples[0], max: samples[samples.length - 1]}
}

export function benchCheckpoint(slices, fixture = null) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tiers-bench-'))
  try {
    const project = path.join(dir, '.greenlight')
    mkdirSync(project)
    const text = fixture ? readFileSync(fixture, 'utf8') : contractCorpus(slices)
    const slice = fixture ? 'S-01' : 'S-001'
    writeFileSync(path.join(project, 'CONTRACTS.md'), text)
    // The fixture’s checks call `make` and `npm`: stand-ins that pass, so the run can open the checkpoint.
    const stubs = path.join(dir, 'stubs')
    mkdirSync(stubs)
    for (const name of ['make', 'npm']) {
      writeFileSync(path.join(stubs, name), '#!/bin/sh\nexit 0\n')
      chmodSync(path.join(stubs, name), 0o755)
    }
    process.env.PATH = `${stubs}${path.delimiter}${process.env.PATH}`
    const lines = text.split('\n').length
    // The checkpoint opens only on a passing run: record one first.
    const verify = spawnSync(process.execPath, [tiers, 'verify', slice], {cwd: dir, encoding: 'utf8'})
    if (verify.status !== 0) throw new Error(`tiers verify exited ${verify.status}: ${verify.stdout}${verify.stderr}`)
    const node = time(process.execPath, ['-e', ''], {cwd: dir})
    // Every run parses the file: what a first call, or a call after an edit, costs.
    const parsed = time(process.execPath, [tiers, 'checkpoint', slice], {cwd: dir, env: {...process.env, TIERS_NO_CACHE: '1'}})
    // The contracts cache is warm: what every later call costs.
    const cached = time(process.execPath, [tiers, 'checkpoint', slice], {cwd: dir})
    return {
      name: 'tiers checkpoint (cold start)',
      lines,
      bytes: Buffer.byteLength(text),
      runs,
      nodeStartMs: node.median,
      parsedMs: parsed.median,
      cachedMs: cached.median,
      parsedRatioToNodeStart: parsed.median / node.median,
      cachedRatioToNodeStart: cached.median / node.median
    }
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}

/**
 * A real project: `BENCH_PROJECT` names its contract folder (a `.greenlight`),
 * `BENCH_SLICE` a slice of it (default: its first). The folder is copied, its
 * test command stubbed with `true`, then: `tiers verify --all` once, and cold
 * (contracts cache off) and warm `tiers checkpoint` and `tiers status`.
 */
export function benchProject(source, slice = null) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tiers-bench-project-'))
  try {
    const project = path.join(dir, '.greenlight')
    cpSync(source, project, {recursive: true, filter: (from) => path.basename(from) !== 'tiers'})
    const configPath = path.join(project, 'config.json')
    const config = existsSync(configPath) ? JSON.parse(readFileSync(configPath, 'utf8')) : {}
    writeFileSync(configPath, JSON.stringify({...config, test: {...config.test, command: 'true'}}))
    const contracts = path.join(project, 'CONTRACTS.md')
    const bytes = existsSync(contracts) ? statSync(contracts).size : 0
    const start = process.hrtime.bigint()
    const verify = spawnSync(process.execPath, [tiers, 'verify', '--all'], {cwd: dir, encoding: 'utf8'})
    const verifyAllMs = Number(process.hrtime.bigint() - start) / 1e6
    if (verify.status !== 0) throw new Error(`tiers verify --all exited ${verify.status}: ${verify.stderr}`)
    const id = slice ?? JSON.parse(spawnSync(process.execPath, [tiers, 'status', '--json'], {cwd: dir, encoding: 'utf8'}).stdout).slices[0].slice
    const cold = {...process.env, TIERS_NO_CACHE: '1'}
    return {
      name: `real project ${source}`,
      bytes,
      slice: id,
      runs,
      verifyAllMs,
      nodeStartMs: time(process.execPath, ['-e', ''], {cwd: dir}).median,
      checkpointColdMs: time(process.execPath, [tiers, 'checkpoint', id], {cwd: dir, env: cold}).median,
      checkpointWarmMs: time(process.execPath, [tiers, 'checkpoint', id], {cwd: dir}).median,
      statusColdMs: time(process.execPath, [tiers, 'status'], {cwd: dir, env: cold}).median,
      statusWarmMs: time(process.execPath, [tiers, 'status'], {cwd: dir}).median
    }
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ms = (value) => `${value.toFixed(0)} ms`
  const results = []
  // The test fixture (3,413 lines, every dialect), then about 3,000 and 7,600 generated lines.
  const fixture = path.join(root, 'test/fixtures/large-contracts.md')
  for (const [slices, file] of [
    [0, fixture],
    [40, null],
    [100, null]
  ]) {
    const result = benchCheckpoint(slices, file)
    results.push(result)
    const what = file ? `test/fixtures/large-contracts.md, ${result.lines} lines` : `${result.lines} generated lines`
    console.log(`tiers checkpoint, ${what} (${(result.bytes / 1024).toFixed(0)} KiB), median of ${runs} cold starts:`)
    console.log(`  node start-up alone   ${ms(result.nodeStartMs)}`)
    console.log(`  parse every time      ${ms(result.parsedMs)} (${result.parsedRatioToNodeStart.toFixed(1)}x node start-up)`)
    console.log(`  contracts cache warm  ${ms(result.cachedMs)} (${result.cachedRatioToNodeStart.toFixed(1)}x node start-up)`)
  }
  // Real projects: the example in this repository, and any other named by BENCH_PROJECT.
  const projects = [path.join(root, 'content/examples/greenlight-project/.greenlight')]
  if (process.env.BENCH_PROJECT) projects.push(path.resolve(process.env.BENCH_PROJECT))
  for (const source of projects) {
    const result = benchProject(source, source === projects[0] ? 'S-01' : (process.env.BENCH_SLICE ?? null))
    results.push(result)
    console.log(`\n${source} (CONTRACTS.md ${(result.bytes / 1024).toFixed(0)} KiB), median of ${runs} cold starts:`)
    console.log(`  node start-up alone          ${ms(result.nodeStartMs)}`)
    console.log(`  tiers verify --all (once)    ${ms(result.verifyAllMs)}`)
    console.log(
      `  checkpoint ${result.slice}, cache off  ${ms(result.checkpointColdMs)} (${(result.checkpointColdMs / result.nodeStartMs).toFixed(1)}x node start-up)`
    )
    console.log(
      `  checkpoint ${result.slice}, cache warm ${ms(result.checkpointWarmMs)} (${(result.checkpointWarmMs / result.nodeStartMs).toFixed(1)}x node start-up)`
    )
    console.log(`  status, cache off            ${ms(result.statusColdMs)} (${(result.statusColdMs / result.nodeStartMs).toFixed(1)}x node start-up)`)
    console.log(`  status, cache warm           ${ms(result.statusWarmMs)} (${(result.statusWarmMs / result.nodeStartMs).toFixed(1)}x node start-up)`)
  }
  mkdirSync(path.join(root, 'bench/results'), {recursive: true})
  writeFileSync(path.join(root, 'bench/results/checkpoint.json'), JSON.stringify(results, null, 2) + '\n')
}
