// Parse time against the number of contracts, and the stop hook on a project
// at the input limits. Not a test: figures only.
//
// (a) 2,000 / 8,000 / 32,000 ordinary contracts (`### C-N: X`, a
// Verification field, one criterion in a list; 77 bytes each) in one file,
// each size parsed in a process of its own: remark-parse as the gate and the
// rules run it (with micromark-util-edit-map's `consume` made linear by
// `@verification-tiers/contracts/edit-map`), and the gate's whole read of a
// file (`analyzeContractFile`: parse, depth check, contracts), beside the
// original `consume` at 2,000 and 8,000 (32,000 would take minutes). Linear
// time grows 2x per doubling of the contracts; the bench says whether each
// step stays within 1.3x of that (at most 2.6x per doubling). Wall time and
// CPU time (the process's, its garbage collector's threads included), median
// of `BENCH_RUNS` (default 5).
//
// (b) `tiers stop-hook` on a project at the input limits (`inputLimits` of
// the runtime: 16 MiB a file, 32 MiB of contract files in all): 32 files of
// 1 MiB of the same contracts (auto, so that the hook has nothing but the
// load to judge), with the contracts cache on: five calls under the default
// deadlines, then a first and a later call with the deadlines out of the way
// (what the load costs, and what it costs with every file in the cache);
// and a 16 MiB file alone. Wall and CPU time (with /usr/bin/time), and the
// peak memory, of each call.
// `BENCH_LIMITS=0` skips it (it takes minutes), `BENCH_GROWTH=0` the first.
import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const tiers = path.join(root, 'packages/cli/dist/bin.js')
const runs = Number(process.env.BENCH_RUNS ?? 5)

/** `count` ordinary contracts, joined by blank lines, from id `first`. */
export function ordinaryContracts(count, {first = 0, tier = 'verify'} = {}) {
  const parts = []
  for (let n = first; n < first + count; n++) parts.push(`### C-${n}: X\n\n**Verification:** ${tier}\n**Acceptance Criteria:**\n- item ${n}\n`)
  return parts.join('\n')
}

/** In a child: parse `count` contracts once the way `how` says, and print the times. */
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
    const [{unified}, {default: remarkParse}, {default: remarkFrontmatter}] = await Promise.all([import('unified'), import('remark-parse'), import('remark-frontmatter')])
    const processor = unified().use(remarkParse).use(remarkFrontmatter)
    parse = () => processor.parse(text)
  }
  const cpu = process.cpuUsage()
  const start = performance.now()
  parse()
  const wallMs = performance.now() - start
  const used = process.cpuUsage(cpu)
  console.log(JSON.stringify({wallMs, cpuMs: (used.user + used.system) / 1000, bytes: Buffer.byteLength(text), patch: editMapPatch.state}))
}

/** Median wall and CPU time of `runs` children parsing `count` contracts the way `how` says. */
function timeParse(how, count) {
  const samples = []
  for (let i = 0; i < runs; i++) {
    const result = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', how, String(count)], {cwd: root, encoding: 'utf8'})
    if (result.status !== 0) throw new Error(`parse of ${count} (${how}) exited ${result.status}: ${result.stderr}`)
    samples.push(JSON.parse(result.stdout))
  }
  const median = (key) => samples.map((sample) => sample[key]).sort((a, b) => a - b)[Math.floor(samples.length / 2)]
  return {how, count, bytes: samples[0].bytes, patch: samples[0].patch, wallMs: median('wallMs'), cpuMs: median('cpuMs')}
}

/** The time ratio per doubling from `a` to `b` (`b.count` = 4 `a.count`: two doublings). */
const perDoubling = (a, b, key) => (b[key] / a[key]) ** (1 / Math.log2(b.count / a.count))

function benchGrowth() {
  const sizes = [2000, 8000, 32000]
  const rows = []
  const ms = (value) => `${Math.round(value).toLocaleString('en-US')} ms`.padStart(10)
  console.log(`parse time, median of ${runs} processes each (wall / CPU)\n`)
  for (const how of ['parse', 'gate', 'original']) {
    const label = {parse: 'remark-parse, linear consume', gate: 'the gate: parse and contracts', original: 'remark-parse, original consume'}[how]
    const row = []
    for (const count of how === 'original' ? sizes.slice(0, 2) : sizes) {
      const result = timeParse(how, count)
      row.push(result)
      rows.push(result)
    }
    console.log(`${label}`)
    for (const result of row) console.log(`  ${result.count.toLocaleString('en-US').padStart(6)} contracts (${(result.bytes / 1024).toFixed(0).padStart(5)} KiB) ${ms(result.wallMs)} /${ms(result.cpuMs)}`)
    for (let i = 1; i < row.length; i++) {
      const wall = perDoubling(row[i - 1], row[i], 'wallMs')
      const cpu = perDoubling(row[i - 1], row[i], 'cpuMs')
      const verdict = how === 'original' ? '' : Math.max(wall, cpu) <= 2.6 ? '  linear (at most 2.6x)' : '  OVER 2.6x'
      console.log(`  ${row[i - 1].count} -> ${row[i].count}: ${wall.toFixed(2)}x / ${cpu.toFixed(2)}x per doubling${verdict}`)
    }
    console.log('')
  }
  return rows
}

const hasTime = existsSync('/usr/bin/time')

/** One `tiers stop-hook` call in `cwd`: its wall time, CPU time (with /usr/bin/time), peak memory, answer and warnings. */
function stopHook(cwd, env) {
  const command = hasTime ? ['/usr/bin/time', '-f', '__time %U %S %M', process.execPath, tiers, 'stop-hook'] : [process.execPath, tiers, 'stop-hook']
  const start = performance.now()
  const result = spawnSync(command[0], command.slice(1), {cwd, env: {...process.env, ...env}, input: '{"session_id": "bench"}', encoding: 'utf8', maxBuffer: 256 * 1024 * 1024})
  const ms = performance.now() - start
  if (result.status !== 0) throw new Error(`tiers stop-hook exited ${result.status}: ${result.stderr.slice(-2000)}`)
  const answer = JSON.parse(result.stdout)
  const said = answer.reason ?? answer.systemMessage ?? ''
  const line = said.split('\n').find((text) => text.includes('Unexpected')) ?? ''
  const timed = /__time ([\d.]+) ([\d.]+) (\d+)/.exec(result.stderr)
  const warnings = result.stderr.split('\n').filter((text) => text.trim() !== '' && !text.startsWith('__time'))
  return {ms, cpuMs: timed ? (Number(timed[1]) + Number(timed[2])) * 1000 : null, peakMb: timed ? Number(timed[3]) / 1024 : null, decision: answer.decision ?? 'allow', line, warnings}
}

/** A call as the bench prints it. */
function callLine(call, {ms, cpuMs, peakMb, decision, line, warnings}) {
  const cost = cpuMs === null ? '' : ` (CPU ${(cpuMs / 1000).toFixed(1)} s, peak ${Math.round(peakMb)} MiB)`
  const said = line ? `: ${line.replace(/^.*?(?=Unexpected)/, '').slice(0, 150)}…` : ''
  const warned = warnings.length > 0 ? `\n    (${warnings.length} warning${warnings.length === 1 ? '' : 's'}: ${warnings[0].slice(0, 150)})` : ''
  return `  call ${call}: ${(ms / 1000).toFixed(1)} s${cost}, ${decision}${said}${warned}`
}

/** A project of `files` contract files of `perFile` contracts each (of `tier`), under `contracts/`. */
function limitsProject(files, perFile, tier) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tiers-bench-limits-'))
  const folder = path.join(dir, '.greenlight', 'contracts')
  mkdirSync(folder, {recursive: true})
  let bytes = 0
  for (let i = 0; i < files; i++) {
    const text = ordinaryContracts(perFile, {first: i * perFile, tier})
    bytes += Buffer.byteLength(text)
    writeFileSync(path.join(folder, `part-${String(i + 1).padStart(2, '0')}.md`), text)
  }
  return {dir, bytes}
}

/** `calls` stop-hook calls, one after the other, on a project of `files` files of `perFile` contracts, with a contracts cache of its own (empty at first). */
function hookCalls(results, name, files, perFile, calls, env, tier = 'auto') {
  const project = limitsProject(files, perFile, tier)
  const cache = mkdtempSync(path.join(os.tmpdir(), 'tiers-bench-cache-'))
  try {
    console.log(`${name}: ${files} file${files === 1 ? '' : 's'}, ${(project.bytes / 1048576).toFixed(2)} MiB, ${(files * perFile).toLocaleString('en-US')} contracts`)
    for (let call = 1; call <= calls; call++) {
      const result = stopHook(project.dir, {XDG_CACHE_HOME: cache, TIERS_NO_CACHE: '', ...env})
      results.push({name, files, bytes: project.bytes, call, ...result})
      console.log(callLine(call, result))
    }
  } finally {
    rmSync(project.dir, {recursive: true, force: true})
    rmSync(cache, {recursive: true, force: true})
  }
}

function benchLimits() {
  const results = []
  // Issue 38's project: 8 files of 3,600 contracts (verify: every one in no slice is a problem, as there), 31 s a call before.
  hookCalls(results, '8 files of 3,600 contracts (issue 38: 31 s a call before), the default deadlines, cache on', 8, 3600, 2, {}, 'verify')
  // 32 files of 13,150 contracts (31.89 MiB): about the most the limits allow of this shape.
  hookCalls(results, 'at the limits, the default deadlines (10 s a file, 30 s a run), cache on', 32, 13_150, 5, {})
  // The same with deadlines out of the way: what the first call costs, and a later one with every file in the cache.
  hookCalls(results, '\nat the limits, no deadline in the way, cache on', 32, 13_150, 2, {TIERS_PARSE_TIMEOUT: '3600', TIERS_PARSE_TOTAL_TIMEOUT: '3600'})
  // One file at a file's limit (15.96 MiB): over the deadline of a file on every call (its cache entry would be over 16 MiB).
  hookCalls(results, '\none file at its limit, the default deadlines', 1, 212_000, 1, {})
  return results
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], Number(process.argv[4]))
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const growth = process.env.BENCH_GROWTH === '0' ? [] : benchGrowth()
  const limits = process.env.BENCH_LIMITS === '0' ? [] : benchLimits()
  mkdirSync(path.join(root, 'bench/results'), {recursive: true})
  writeFileSync(path.join(root, 'bench/results/parse.json'), JSON.stringify({growth, limits}, null, 2) + '\n')
}
