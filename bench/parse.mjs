// Parse time against the number of contracts. Not a test: figures only.
//
// 2,000 / 8,000 / 32,000 ordinary contracts (`### C-N: X`, a Verification
// field, one criterion in a list; 77 bytes each) in one file, each size
// parsed in a process of its own: remark-parse as the gate and the rules run
// it (with micromark-util-edit-map's `consume` made linear by
// `@verification-tiers/contracts/edit-map`), and the gate's whole read of a
// file (`analyzeContractFile`: parse, depth check, contracts), beside the
// original `consume` at 2,000 and 8,000 (32,000 would take minutes). Linear
// time grows 2x per doubling of the contracts; the bench says whether each
// step stays within 1.3x of that (at most 2.6x per doubling) in CPU time,
// which other work on the machine does not inflate as it does wall time
// (the load average before and after is printed with the figures).
//
// Each process parses the file twice: first as the stop hook does, once, in
// a process that has just started (its code not yet compiled to the fast
// tiers, so the time of 2,000 contracts is half start-up), then again with
// the code warm, which shows the growth alone. Wall time and CPU time (the
// process's, its garbage collector's and compiler's threads included), as
// the trimmed mean of `BENCH_RUNS` processes (default 5; the fastest and
// slowest left out from 4 up), with their range.
//
// The stop hook on projects at the read limits is `bench/hook.mjs`.
import {spawnSync} from 'node:child_process'
import {mkdirSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const runs = Number(process.env.BENCH_RUNS ?? 5)

/** `count` ordinary contracts, joined by blank lines, from id `first`. */
export function ordinaryContracts(count, {first = 0, tier = 'verify'} = {}) {
  const parts = []
  for (let n = first; n < first + count; n++) parts.push(`### C-${n}: X\n\n**Verification:** ${tier}\n**Acceptance Criteria:**\n- item ${n}\n`)
  return parts.join('\n')
}

/** In a child: parse `count` contracts the way `how` says, cold then warm, and print the times. */
async function child(how, count) {
  const {editMapPatch} = await import(pathToFileURL(path.join(root, 'packages/contracts/dist/edit-map.js')).href)
  const {EditMap} = await import('micromark-util-edit-map')
  if (how === 'original') EditMap.prototype.consume = editMapPatch.original
  const text = ordinaryContracts(count)
  let parse
  if (how === 'gate') {
    const {analyzeContractFile} = await import(pathToFileURL(path.join(root, 'packages/project/dist/lib/parse.js')).href)
    parse = () => analyzeContractFile('CONTRACTS.md', text)
  } else {
    const [{unified}, {default: remarkParse}, {default: remarkFrontmatter}] = await Promise.all([
      import('unified'),
      import('remark-parse'),
      import('remark-frontmatter')
    ])
    const processor = unified().use(remarkParse).use(remarkFrontmatter)
    parse = () => processor.parse(text)
  }
  const timed = () => {
    const cpu = process.cpuUsage()
    const start = performance.now()
    parse()
    const wallMs = performance.now() - start
    const used = process.cpuUsage(cpu)
    return {wallMs, cpuMs: (used.user + used.system) / 1000}
  }
  const cold = timed()
  // The original is timed cold only: a second parse would double its slowest runs.
  const warm = how === 'original' ? {wallMs: Number.NaN, cpuMs: Number.NaN} : timed()
  console.log(
    JSON.stringify({
      wallMs: cold.wallMs,
      cpuMs: cold.cpuMs,
      warmWallMs: warm.wallMs,
      warmCpuMs: warm.cpuMs,
      bytes: Buffer.byteLength(text),
      patch: editMapPatch.state
    })
  )
}

/** The trimmed mean of `values` (the lowest and highest left out, from 4 values up), with their range. */
function trimmed(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const kept = sorted.length >= 4 ? sorted.slice(1, -1) : sorted
  return {mean: kept.reduce((sum, value) => sum + value, 0) / kept.length, min: sorted[0], max: sorted.at(-1)}
}

/** Wall and CPU time, cold and warm, of `runs` children parsing `count` contracts the way `how` says: trimmed means, with their ranges. */
function timeParse(how, count) {
  const samples = []
  for (let i = 0; i < runs; i++) {
    const result = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', how, String(count)], {cwd: root, encoding: 'utf8'})
    if (result.status !== 0) throw new Error(`parse of ${count} (${how}) exited ${result.status}: ${result.stderr}`)
    samples.push(JSON.parse(result.stdout))
  }
  const of = (key) => trimmed(samples.map((sample) => sample[key]))
  return {
    how,
    count,
    bytes: samples[0].bytes,
    patch: samples[0].patch,
    wallMs: of('wallMs'),
    cpuMs: of('cpuMs'),
    warmWallMs: of('warmWallMs'),
    warmCpuMs: of('warmCpuMs'),
    samples
  }
}

/** The time ratio per doubling from `a` to `b` (`b.count` = 4 `a.count`: two doublings). */
const perDoubling = (a, b, key) => (b[key].mean / a[key].mean) ** (1 / Math.log2(b.count / a.count))

function benchGrowth() {
  const sizes = [2000, 8000, 32000]
  const rows = []
  const ms = ({mean, min, max}) =>
    `${Math.round(mean).toLocaleString('en-US')} ms (${Math.round(min).toLocaleString('en-US')}-${Math.round(max).toLocaleString('en-US')})`.padStart(24)
  const load = () =>
    os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')
  console.log(`parse time, trimmed mean of ${runs} processes each (range): wall / CPU, cold then warm; load average ${load()}\n`)
  for (const how of ['parse', 'gate', 'original']) {
    const label = {parse: 'remark-parse, linear consume', gate: 'the gate: parse and contracts', original: 'remark-parse, original consume (cold only)'}[how]
    const row = []
    for (const count of how === 'original' ? sizes.slice(0, 2) : sizes) {
      const result = timeParse(how, count)
      row.push(result)
      rows.push(result)
    }
    console.log(`${label}`)
    for (const result of row) {
      const warm = how === 'original' ? '' : `   warm ${ms(result.warmWallMs)} /${ms(result.warmCpuMs)}`
      console.log(
        `  ${result.count.toLocaleString('en-US').padStart(6)} contracts (${(result.bytes / 1024).toFixed(0).padStart(5)} KiB) cold ${ms(result.wallMs)} /${ms(result.cpuMs)}${warm}`
      )
    }
    for (let i = 1; i < row.length; i++) {
      const cold = [perDoubling(row[i - 1], row[i], 'wallMs'), perDoubling(row[i - 1], row[i], 'cpuMs')]
      const warm = how === 'original' ? [] : [perDoubling(row[i - 1], row[i], 'warmWallMs'), perDoubling(row[i - 1], row[i], 'warmCpuMs')]
      const verdict = how === 'original' ? '' : Math.max(cold[1], warm[1]) <= 2.6 ? '  linear in CPU (at most 2.6x)' : '  OVER 2.6x in CPU'
      const warmly = warm.length > 0 ? `, warm ${warm[0].toFixed(2)}x / ${warm[1].toFixed(2)}x` : ''
      console.log(`  ${row[i - 1].count} -> ${row[i].count} per doubling: cold ${cold[0].toFixed(2)}x / ${cold[1].toFixed(2)}x${warmly}${verdict}`)
    }
    console.log('')
  }
  console.log(`load average after: ${load()}`)
  return rows
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], Number(process.argv[4]))
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const growth = benchGrowth()
  mkdirSync(path.join(root, 'bench/results'), {recursive: true})
  writeFileSync(path.join(root, 'bench/results/parse.json'), JSON.stringify({growth}, null, 2) + '\n')
}
