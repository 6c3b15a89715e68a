// The fingerprint on a big tree: `tiers checkpoint` (which fingerprints the
// sources once) in a git repository and outside git, with and without a
// `node_modules` of many files beside the sources, and with as many files of
// another folder that is not left out. `node_modules` is left out by
// default: its figure should be that of the tree without it, not grow with
// its files. Not a test: figures only.
import {spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const tiers = path.join(root, 'packages/cli/dist/bin.js')
const runs = Number(process.env.BENCH_RUNS ?? 7)
const packages = Number(process.env.BENCH_PACKAGES ?? 500)
const perPackage = 100

const contracts = `# Contracts

## S-01: Build

### C-01: Build

**Slice:** S-01
**Verification:** verify
**Acceptance Criteria:**
- The build passes -- verified by: \`true\`
`

function git(cwd, ...args) {
  const result = spawnSync('git', args, {cwd, encoding: 'utf8'})
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} exited ${result.status}: ${result.stderr}`)
}

/** `packages` folders of `perPackage` small files each under `folder`. */
function manyFiles(folder) {
  for (let p = 0; p < packages; p++) {
    const dir = path.join(folder, `pkg${p}`, 'lib')
    mkdirSync(dir, {recursive: true})
    for (let f = 0; f < perPackage; f++) writeFileSync(path.join(dir, `f${f}.js`), `module.exports = ${p * perPackage + f}\n`)
  }
}

/** A project with 200 source files, in git (committed) or not, and `extra` (`node_modules` or `vendor-out`) of many files. */
function tree({inGit, extra}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tiers-bench-fingerprint-'))
  mkdirSync(path.join(dir, '.greenlight'))
  writeFileSync(path.join(dir, '.greenlight', 'CONTRACTS.md'), contracts)
  writeFileSync(path.join(dir, '.greenlight', 'config.json'), JSON.stringify({test: {command: 'true'}}))
  mkdirSync(path.join(dir, 'src'))
  for (let i = 0; i < 200; i++) writeFileSync(path.join(dir, 'src', `s${i}.ts`), `export const s${i} = ${i}\n`)
  writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\nvendor-out/\n')
  if (inGit) {
    git(dir, 'init', '-q')
    git(dir, 'add', '-A')
    git(dir, '-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'bench')
  }
  if (extra) manyFiles(path.join(dir, extra))
  return dir
}

function median(command, args, cwd) {
  const samples = []
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint()
    const result = spawnSync(command, args, {cwd, encoding: 'utf8'})
    samples.push(Number(process.hrtime.bigint() - start) / 1e6)
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stdout}${result.stderr}`)
  }
  samples.sort((a, b) => a - b)
  return samples[Math.floor(samples.length / 2)]
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = packages * perPackage
  const results = []
  console.log(`tiers checkpoint S-01, 200 sources, median of ${runs} cold starts:`)
  for (const inGit of [true, false]) {
    for (const extra of [null, 'node_modules', 'vendor-out']) {
      const dir = tree({inGit, extra})
      try {
        const verify = spawnSync(process.execPath, [tiers, 'verify', 'S-01'], {cwd: dir, encoding: 'utf8'})
        if (verify.status !== 0) throw new Error(`tiers verify exited ${verify.status}: ${verify.stdout}${verify.stderr}`)
        const checkpointMs = median(process.execPath, [tiers, 'checkpoint', 'S-01'], dir)
        const what =
          extra === null
            ? 'nothing else'
            : extra === 'node_modules'
              ? `node_modules/ of ${files} files (left out)`
              : `vendor-out/ of ${files} files (ignored by git, hashed)`
        const name = `${inGit ? 'in git' : 'outside git'}, ${what}`
        results.push({name, inGit, extra, files: extra ? files : 0, checkpointMs})
        console.log(`  ${name.padEnd(60)} ${checkpointMs.toFixed(0)} ms`)
      } finally {
        rmSync(dir, {recursive: true, force: true})
      }
    }
  }
  mkdirSync(path.join(root, 'bench/results'), {recursive: true})
  writeFileSync(path.join(root, 'bench/results/fingerprint.json'), JSON.stringify(results, null, 2) + '\n')
}
