// `tiers contracts` and `tiers status` on the real projects of `../shared/corpus`
// (Greenlight, spec-kit, OpenSpec and Kiro), and `tiers ci --base` on a
// branch that touched every markdown file (the project loaded twice),
// cold (contracts cache off) and warm, beside two peers in the same run: plain
// `node` start-up (the floor) and the `remark` CLI parsing the same markdown
// with no plugins (what reading the files costs any unified tool).
// Not a test: figures only. Without `../shared/corpus` it says so and ends.
import {spawnSync} from 'node:child_process'
import {cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const corpusRoot = path.resolve(root, '../shared/corpus')
const tiers = path.join(root, 'packages/cli/dist/bin.js')
const remark = path.join(root, 'node_modules/remark-cli/cli.js')
const runs = Number(process.env.BENCH_RUNS ?? 9)

/** Median, min and max wall time of `runs` runs of a command; a run exiting other than `codes` is an error. */
function time(args, options, codes = [0]) {
  const samples = []
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint()
    const result = spawnSync(process.execPath, args, {...options, encoding: 'utf8'})
    samples.push(Number(process.hrtime.bigint() - start) / 1e6)
    if (!codes.includes(result.status)) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`)
  }
  samples.sort((a, b) => a - b)
  return {median: samples[Math.floor(samples.length / 2)], min: samples[0], max: samples.at(-1)}
}

// The folders `tiers` reads, by tool: Greenlight's, spec-kit's, OpenSpec's, Kiro's.
const toolFolders = ['.greenlight', 'specs', 'openspec', '.kiro']

/** The markdown files `tiers` reads in a project folder: for Greenlight its contract files and its graph, for the other tools every markdown file of their folder. */
function markdownOf(project) {
  if (path.basename(project) !== '.greenlight') {
    return readdirSync(project, {recursive: true})
      .filter((name) => name.endsWith('.md'))
      .map((name) => path.join(project, name))
  }
  const files = ['CONTRACTS.md', 'GRAPH.md'].map((name) => path.join(project, name)).filter((file) => existsSync(file))
  const folder = path.join(project, 'contracts')
  if (existsSync(folder))
    files.push(
      ...readdirSync(folder)
        .filter((name) => name.endsWith('.md'))
        .map((name) => path.join(folder, name))
    )
  return files
}

function benchProject(name) {
  const tool = toolFolders.find((folder) => existsSync(path.join(corpusRoot, name, folder)))
  const source = path.join(corpusRoot, name, tool)
  const dir = mkdtempSync(path.join(os.tmpdir(), `tiers-bench-${name}-`))
  try {
    const project = path.join(dir, tool)
    cpSync(source, project, {recursive: true, filter: (from) => path.basename(from) !== 'tiers'})
    const files = markdownOf(project)
    const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0)
    const options = {cwd: dir}
    const cold = {cwd: dir, env: {...process.env, TIERS_NO_CACHE: '1'}}
    // The base commit, and a branch that touched every markdown file, for `tiers ci --base` (1: the merge is held).
    const git = (...args) => spawnSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', '-c', 'commit.gpgsign=false', ...args], options)
    git('init', '-q')
    git('add', '-A')
    git('commit', '-q', '-m', 'base')
    const base = git('rev-parse', 'HEAD').stdout.toString().trim()
    for (const file of files) writeFileSync(file, readFileSync(file, 'utf8') + '\n')
    git('commit', '-q', '-a', '-m', 'branch')
    const merge = time([tiers, 'ci', '--base', base], cold, [0, 1]).median
    // Warm the contracts cache once before the warm runs.
    spawnSync(process.execPath, [tiers, 'contracts'], {cwd: dir})
    return {
      name,
      files: files.length,
      bytes,
      runs,
      nodeMs: time(['-e', ''], options).median,
      remarkParseMs: time([remark, '--no-config', '--no-stdout', '--quiet', ...files], options).median,
      contractsColdMs: time([tiers, 'contracts'], cold).median,
      contractsWarmMs: time([tiers, 'contracts'], options).median,
      statusColdMs: time([tiers, 'status'], cold).median,
      statusWarmMs: time([tiers, 'status'], options).median,
      ciBaseColdMs: merge
    }
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}

if (!existsSync(corpusRoot)) {
  console.log(`no corpus at ${corpusRoot}: nothing to measure`)
} else {
  const names = readdirSync(corpusRoot)
    .filter((name) => toolFolders.some((folder) => existsSync(path.join(corpusRoot, name, folder))))
    .sort()
  const rows = []
  const ms = (value) => `${value.toFixed(0)} ms`.padStart(8)
  console.log(`median of ${runs} runs each; ratios against the remark CLI parsing the same files\n`)
  console.log(
    `${'project'.padEnd(14)}${'KiB'.padStart(6)}${'node'.padStart(8)}${'remark'.padStart(8)}   contracts cold / warm        status cold / warm   ci --base`
  )
  for (const name of names) {
    let row
    try {
      row = benchProject(name)
    } catch (error) {
      console.log(`${name.padEnd(14)}failed: ${String(error.message).split('\n')[0]}`)
      continue
    }
    rows.push(row)
    const ratio = (value) => `(${(value / row.remarkParseMs).toFixed(2)}x)`
    console.log(
      `${name.padEnd(14)}${(row.bytes / 1024).toFixed(0).padStart(6)}${ms(row.nodeMs)}${ms(row.remarkParseMs)}` +
        `   ${ms(row.contractsColdMs)} ${ratio(row.contractsColdMs)} /${ms(row.contractsWarmMs)} ${ratio(row.contractsWarmMs)}` +
        `   ${ms(row.statusColdMs)} /${ms(row.statusWarmMs)}   ${ms(row.ciBaseColdMs)}`
    )
  }
  mkdirSync(path.join(root, 'bench/results'), {recursive: true})
  writeFileSync(path.join(root, 'bench/results/corpus.json'), JSON.stringify(rows, null, 2) + '\n')
}
