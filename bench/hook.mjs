// The stop hook on projects at the read limits (`defaultReadLimits` of the
// runtime: each markdown file at most 1 MiB, 4 MiB of a project in all),
// end to end through the real bin (`tiers stop-hook`), every call a first
// call (`TIERS_NO_CACHE`: nothing kept from one call to the next), under the
// default parse deadlines, beside its peer: a plain remark-parse of the same
// files in a process of its own (node's start-up and the parser's load
// included, as in the hook; micromark's `consume` made linear as the gate
// has it, `@verification-tiers/contracts/edit-map`, without which the lists
// of these files take remark-parse minutes). Not a test: figures only.
//
// Projects, each under both limits by less than one contract, story or task:
// * Greenlight, 4 contract files of 1 MiB of ordinary contracts (a heading,
//   a Verification field, one criterion in a list: 77 bytes each, the
//   densest markdown a project writes; `auto`, so that the hook has nothing
//   but the load to judge), read in the parse worker
// * Greenlight, one file of 1 MiB
// * spec-kit, 4 MiB of feature folders with a spec.md of 8 user stories
//   (7 KiB) and a tasks.md of 120 tasks (14 KiB), about the sizes of a real
//   project's, read by the tool's reader (in the hook's own thread)
// * the first one with one more small file: over the total, the gate fails
//   closed without parsing
// The first is also measured with the deadlines out of the way (600 s):
// under load a call may run out of its deadline (10 s a file, 30 s in all),
// and fail closed on it, before it has parsed everything; the calls that
// did are counted.
//
// Each call's wall time, its CPU time (user and system, every thread: the
// garbage collector's and the compiler's too) and peak memory come from
// /usr/bin/time when there is one. `BENCH_RUNS` calls (default 5) of each;
// the figure given is their trimmed mean (the fastest and the slowest left
// out, from 4 runs up), with the range of all, and the load average of the
// machine before and after, as other work on it slows the wall time.
import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {ordinaryContracts} from './parse.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const tiers = path.join(root, 'packages/cli/dist/bin.js')
const runs = Number(process.env.BENCH_RUNS ?? 5)
const hasTime = existsSync('/usr/bin/time')
/** The hook's budget on a project at the limits, in seconds. */
const budget = 2

/**
 * Texts of at most `limit` bytes each, `total` in all: each `pieces(first,
 * count)` (consecutive pieces from `first`, `pieceBytes` or a little more
 * each) with as many pieces as fit.
 */
function fill(limit, total, pieceBytes, pieces) {
  const texts = []
  let left = total
  let first = 0
  while (left >= pieceBytes) {
    const room = Math.min(limit, left)
    let count = Math.floor(room / pieceBytes)
    let text = pieces(first, count)
    // Longer ids make later pieces larger: fewer, until they fit.
    while (Buffer.byteLength(text) > room) {
      count -= Math.ceil((Buffer.byteLength(text) - room) / pieceBytes)
      text = pieces(first, count)
    }
    texts.push(text)
    left -= Buffer.byteLength(text)
    first += count
  }
  return texts
}

/** A spec-kit feature's spec.md: `stories` user stories of 3 scenarios, each about 1 KiB. */
function featureSpec(n, stories) {
  const parts = [`# Feature Specification: Feature ${n}\n\n**Feature Branch**: \`${n}-feature\`\n\n## User Scenarios & Testing *(mandatory)*\n`]
  for (let s = 1; s <= stories; s++) {
    parts.push(
      `### User Story ${s} - Record what was planted in bed ${s} (Priority: P${(s % 3) + 1})\n\n` +
        `A gardener records each planting with its bed, its plant and its date, so that the log shows what grows where and since when, and the season can be planned from it.\n\n` +
        `**Why this priority**: without the log nothing else of the feature has data to show.\n\n` +
        `**Independent Test**: add one planting through the form and find it in the list with its bed and its date.\n\n` +
        `**Acceptance Scenarios**:\n\n` +
        `1. **Given** an empty log, **When** the gardener saves a planting of tomatoes in bed ${s}, **Then** the list shows one planting, in bed ${s}, dated today.\n` +
        `2. **Given** a planting in bed ${s}, **When** the gardener edits its date, **Then** the list shows the new date and keeps the bed.\n` +
        `3. **Given** a planting without a bed, **When** the gardener saves it, **Then** the form refuses it and names the missing bed.\n`
    )
  }
  return parts.join('\n')
}

/** A spec-kit feature's tasks.md: `tasks` ticked tasks of about 150 bytes, in phases of ten. */
function featureTasks(n, tasks) {
  const lines = [`# Tasks: Feature ${n}\n\n**Input**: Design documents from \`/specs/${n}-feature/\`\n`]
  for (let t = 1; t <= tasks; t++) {
    if (t % 10 === 1) lines.push(`\n## Phase ${Math.ceil(t / 10)}: User Story ${Math.ceil(t / 10)}\n`)
    lines.push(
      `- [x] T${String(t).padStart(3, '0')} [P] [US${Math.ceil(t / 10)}] Add the planting form field ${t} in src/components/planting-form-${t}.tsx with its validation`
    )
  }
  return lines.join('\n') + '\n'
}

/** Write `files` (path relative to `dir` → text) under `dir`. */
function writeProject(dir, files) {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), {recursive: true})
    writeFileSync(path.join(dir, name), text)
  }
}

/** The projects measured, each a function of the limits giving its files (path in a scratch folder → text). */
function projects(limits) {
  const contractBytes = Buffer.byteLength(ordinaryContracts(2)) - Buffer.byteLength(ordinaryContracts(1))
  const greenlight = (limit) => {
    const texts = fill(limits.file, limit, contractBytes, (first, count) => ordinaryContracts(count, {first, tier: 'auto'}))
    return Object.fromEntries(texts.map((text, index) => [`.greenlight/contracts/part-${index + 1}.md`, text]))
  }
  const atLimits = greenlight(limits.total)
  const spec = featureSpec(1, 8)
  const tasks = featureTasks(1, 120)
  const featureBytes = Buffer.byteLength(spec) + Buffer.byteLength(tasks) + 200
  const features = {}
  const count = Math.floor(limits.total / featureBytes)
  for (let n = 1; n <= count; n++) {
    const id = String(n).padStart(3, '0')
    features[`specs/${id}-feature/spec.md`] = featureSpec(n, 8)
    features[`specs/${id}-feature/tasks.md`] = featureTasks(n, 120)
  }
  features['specs/tiers.json'] = '{"verification": {"default": "auto"}}\n'
  return [
    {name: 'Greenlight at the limits (contract files of 1 MiB, 4 MiB in all)', files: atLimits},
    {name: 'the same, the deadlines out of the way', files: atLimits, env: {TIERS_PARSE_TIMEOUT: '600', TIERS_PARSE_TOTAL_TIMEOUT: '600'}, samePeer: true},
    {name: 'Greenlight, one contract file at its limit', files: greenlight(limits.file)},
    {name: 'spec-kit at the limits (features of a spec.md and a tasks.md, 4 MiB in all)', files: features},
    {
      name: 'Greenlight over the total by one small file',
      files: {...atLimits, '.greenlight/contracts/zz-more.md': ordinaryContracts(2000, {first: 10_000_000, tier: 'auto'})},
      over: true
    }
  ]
}

/** One run of `args` (node's) in `cwd`: wall and CPU seconds, peak MiB, and its output. */
function run(args, cwd, {input = '', env = {}} = {}) {
  const command = hasTime ? ['/usr/bin/time', '-f', '__time %e %U %S %M', process.execPath, ...args] : [process.execPath, ...args]
  const start = performance.now()
  const result = spawnSync(command[0], command.slice(1), {cwd, input, env: {...process.env, ...env}, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024})
  const wall = (performance.now() - start) / 1000
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr.slice(-2000)}`)
  const timed = /__time ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(result.stderr)
  return {wall, cpu: timed ? Number(timed[2]) + Number(timed[3]) : null, peakMiB: timed ? Number(timed[4]) / 1024 : null, stdout: result.stdout}
}

/** The trimmed mean of `values` (the lowest and highest left out, from 4 values up), with their range. */
function trimmed(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const kept = sorted.length >= 4 ? sorted.slice(1, -1) : sorted
  return {mean: kept.reduce((sum, value) => sum + value, 0) / kept.length, min: sorted[0], max: sorted.at(-1)}
}

/** The markdown files of a project folder, for the peer. */
function markdownFiles(dir) {
  return readdirSync(dir, {recursive: true})
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => path.join(dir, name))
}

/** In a child (the peer): parse each file named in `list` with remark-parse alone. */
async function peer(list) {
  await import(pathToFileURL(path.join(root, 'packages/contracts/dist/edit-map.js')).href)
  const [{unified}, {default: remarkParse}] = await Promise.all([import('unified'), import('remark-parse')])
  const processor = unified().use(remarkParse)
  for (const file of readFileSync(list, 'utf8').split('\n').filter(Boolean)) processor.parse(readFileSync(file, 'utf8'))
}

function main() {
  const runtime = path.join(root, 'packages/runtime/dist/index.js')
  return import(pathToFileURL(runtime).href).then(({defaultReadLimits: limits}) => {
    const rows = []
    const load = () =>
      os
        .loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')
    const seconds = ({mean, min, max}) => `${mean.toFixed(2)} s (${min.toFixed(2)}-${max.toFixed(2)})`
    console.log(`tiers stop-hook, every call a first call, default deadlines: trimmed mean of ${runs} calls (range), load average ${load()}`)
    console.log(`read limits: ${limits.file} bytes a file, ${limits.total} bytes in all; budget ${budget} s a call\n`)
    for (const {name, files, over, env = {}, samePeer} of projects(limits)) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'tiers-bench-hook-'))
      try {
        writeProject(dir, files)
        const markdown = markdownFiles(dir)
        const bytes = markdown.reduce((sum, file) => sum + statSync(file).size, 0)
        const list = path.join(dir, 'files.txt')
        writeFileSync(list, markdown.join('\n'))
        const hook = []
        const parse = []
        const said = new Map()
        for (let index = 0; index < runs; index++) {
          // In turns, so that a change in the machine's load falls on both.
          const call = run([tiers, 'stop-hook'], dir, {input: '{"session_id": "bench"}', env: {TIERS_NO_CACHE: '1', ...env}})
          hook.push(call)
          const answer = JSON.parse(call.stdout)
          const lines = answer.reason?.replaceAll(dir, '<project>').split('\n').filter(Boolean) ?? []
          // What the call said, without what names a file or counts its lines.
          const what =
            answer.decision === 'block'
              ? `blocks: ${lines
                  .slice(0, 2)
                  .join(' ')
                  .replace(/ \(\d+ bytes: .*/, '')
                  .slice(0, 170)}`
              : 'allows the stop'
          said.set(what, (said.get(what) ?? 0) + 1)
          if (!over && !samePeer) parse.push(run([fileURLToPath(import.meta.url), '--peer', list], root))
        }
        const wall = trimmed(hook.map((call) => call.wall))
        const cpu = hasTime ? trimmed(hook.map((call) => call.cpu)) : null
        const peak = hasTime ? Math.max(...hook.map((call) => call.peakMiB)) : null
        // The peer of the same files as the project before is that one's.
        const peerWall = samePeer ? rows.at(-1).peerWall : parse.length > 0 ? trimmed(parse.map((call) => call.wall)) : null
        const peerCpu = samePeer ? rows.at(-1).peerCpu : parse.length > 0 && hasTime ? trimmed(parse.map((call) => call.cpu)) : null
        console.log(`${name}: ${markdown.length} files, ${(bytes / 1048576).toFixed(2)} MiB`)
        console.log(`  hook   wall ${seconds(wall)}${cpu ? `, CPU ${seconds(cpu)}, peak ${Math.round(peak)} MiB` : ''}`)
        for (const [what, count] of said) console.log(`         ${count} of ${runs} ${what}`)
        if (peerWall) {
          console.log(`  parse  wall ${seconds(peerWall)}${peerCpu ? `, CPU ${seconds(peerCpu)}` : ''} (remark-parse alone, same files)`)
          console.log(`  ratio  ${(wall.mean / peerWall.mean).toFixed(2)}x wall${peerCpu ? `, ${(cpu.mean / peerCpu.mean).toFixed(2)}x CPU` : ''}`)
        }
        console.log(`  ${wall.mean < budget ? 'under' : 'OVER'} ${budget} s wall${cpu ? `, ${cpu.mean < budget ? 'under' : 'OVER'} ${budget} s CPU` : ''}\n`)
        rows.push({
          name,
          files: markdown.length,
          bytes,
          hook,
          parse: parse.map(({stdout, ...rest}) => rest),
          wall,
          cpu,
          peakMiB: peak,
          peerWall,
          peerCpu,
          said: Object.fromEntries(said)
        })
      } finally {
        rmSync(dir, {recursive: true, force: true})
      }
    }
    console.log(`load average after: ${load()}`)
    for (const row of rows) for (const call of row.hook) delete call.stdout
    mkdirSync(path.join(root, 'bench/results'), {recursive: true})
    writeFileSync(path.join(root, 'bench/results/hook.json'), JSON.stringify({limits, runs, rows}, null, 2) + '\n')
  })
}

if (process.argv[2] === '--peer') await peer(process.argv[3])
else await main()
