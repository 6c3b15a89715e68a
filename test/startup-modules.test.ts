/**
 * What a `tiers` command loads: it starts at every stop of an agent, so each
 * command loads what it uses and no more. A command that reads no project
 * loads neither the markdown parser nor the project reader; a command that
 * reads one loads the parser only for a contract file the contracts cache
 * does not hold (and then in a worker thread); `verify` loads the lint
 * engine only for a contract file its lint cache does not hold. A settings
 * file is checked by the validators generate-protocol compiled, without ajv.
 *
 * Each run preloads `helpers/record-modules.mjs`, which writes down every
 * module the process and its workers resolve.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, describe, expect, it} from 'vitest'
import {exampleProject, root, runProcess} from './helpers/tiers-bin.js'

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const recorder = pathToFileURL(path.join(root, 'test', 'helpers', 'record-modules.mjs')).href
const bin = path.join(root, 'packages', 'cli', 'bin', 'tiers.js')

/** The markdown parser: remark-parse and what it is made of. */
const parser = /\/node_modules\/(?:remark-parse|unified|mdast-util-from-markdown|micromark[^/]*)\//
/** The lint: `verify`'s worker, the engine, its reporters, the preset and its rules. */
const lint =
  /\/packages\/evidence\/dist\/lib\/lint-worker\.js$|\/node_modules\/(?:unified-engine|vfile-reporter[^/]*)\/|\/packages\/remark-(?:preset-)?lint-[^/]+\/dist\/|\/packages\/lint-rule\/dist\/(?:lib\/)?index\.js$/
/** The project reader: the loader, the graph reader, the runtime’s and the evidence’s main entries. */
const projectReader = /\/packages\/(?:project\/dist\/lib\/project\.js|graph\/dist\/index\.js|runtime\/dist\/index\.js|evidence\/dist\/index\.js)$/

/** Run `tiers` in `cwd`, with a contracts cache of its own (another test’s copy of the example would fill it): its exit code, output, and every module it loaded. */
async function tiersLoading(cwd: string, args: string[], {input = '', env = {}}: {input?: string; env?: Record<string, string | undefined>} = {}) {
  const log = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-modules-')), 'modules.txt')
  folders.push(path.dirname(log))
  await fs.writeFile(log, '')
  const run = await runProcess(process.execPath, ['--import', recorder, bin, ...args], {
    cwd,
    input,
    env: {TIERS_MAX_BLOCKS: undefined, TIERS_NO_CACHE: undefined, XDG_CACHE_HOME: path.join(cwd, 'user-cache'), ...env, TIERS_TEST_MODULES: log}
  })
  const modules = [...new Set((await fs.readFile(log, 'utf8')).split('\n').filter((line) => line.startsWith('file:')))]
  return {...run, modules}
}

describe('what a command loads', () => {
  it.concurrent('--version, --help, a command’s help and verdict load neither the markdown parser nor the project reader', async () => {
    const cwd = await exampleProject(folders, 'verification-tiers-modules-')
    for (const args of [['--version'], ['--help'], ['respond', '--help'], ['help', 'stop-hook'], ['verdict', 'PASS']]) {
      const run = await tiersLoading(cwd, args)
      expect(run.code, args.join(' ')).toBe(0)
      expect(
        run.modules.filter((url) => parser.test(url) || projectReader.test(url)),
        args.join(' ')
      ).toEqual([])
      // The recorder saw the run: the bin and the cli’s entry.
      expect(
        run.modules.some((url) => url.endsWith('/packages/cli/dist/lib/main.js')),
        args.join(' ')
      ).toBe(true)
    }
  })

  it.concurrent('with every contract file in the contracts cache, the gate’s commands load no markdown parser', async () => {
    const cwd = await exampleProject(folders, 'verification-tiers-modules-')
    // The first run reads the contracts and fills the cache.
    const first = await tiersLoading(cwd, ['status'])
    expect(first.code).toBe(0)
    expect(first.modules.some((url) => parser.test(url))).toBe(true)
    // One command of each way in: the gate's commands share one loader (`report`, `route`, `escalate` and `respond --undo` read as `respond` does).
    const runs: Array<[string[], number, string?]> = [
      [['status'], 0],
      // (`contracts --slice S-01` loads what `contracts` does: the slice is found in the project already read.)
      [['contracts'], 0],
      [['checkpoint', 'S-01'], 1],
      [['respond', 'S-01', 'The cards overlap on a narrow screen'], 0],
      [['stop-hook'], 0, '{"session_id": "modules"}']
    ]
    for (const [args, code, input] of runs) {
      const run = await tiersLoading(cwd, args, {input})
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(code)
      expect(
        run.modules.filter((url) => parser.test(url)),
        args.join(' ')
      ).toEqual([])
    }
  })

  it.concurrent('reading a settings file loads the validators compiled at build time, not ajv', async () => {
    const cwd = await exampleProject(folders, 'verification-tiers-modules-')
    const run = await tiersLoading(cwd, ['status'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.modules.filter((url) => url.endsWith('/packages/protocol/settings-validators.generated.js'))).toHaveLength(1)
    expect(run.modules.filter((url) => url.includes('/node_modules/ajv/'))).toEqual([])
  })

  it.concurrent('a second `verify` of unchanged contract files loads no lint and prints what the first printed', async () => {
    const cwd = await exampleProject(folders, 'verification-tiers-modules-', 'true')
    const verify = async () => {
      const run = await tiersLoading(cwd, ['verify', '--all', '--json'])
      // Times aside, one run prints what another does.
      const stdout = run.stdout
        .replace(/"timestamp": "[^"]+"/g, '"timestamp": "…"')
        .replace(/"duration_ms": \d+/g, '"duration_ms": 0')
        .replace(/in \d+\.\d s/g, 'in 0.0 s')
      return {code: run.code, stdout, stderr: run.stderr, lint: run.modules.filter((url) => lint.test(url) || parser.test(url))}
    }
    const first = await verify()
    expect(first.lint.some((url) => url.endsWith('/lint-worker.js'))).toBe(true)
    const second = await verify()
    expect(second).toEqual({...first, lint: []})
  })

  it.concurrent('with the contracts cache off, reading the contracts loads the parser, in its worker', async () => {
    const cwd = await exampleProject(folders, 'verification-tiers-modules-')
    const run = await tiersLoading(cwd, ['respond', 'S-01', 'The badge colours are swapped'], {env: {TIERS_NO_CACHE: '1'}})
    expect(run.code).toBe(0)
    expect(run.modules.some((url) => url.endsWith('/node_modules/remark-parse/index.js'))).toBe(true)
    expect(run.modules.some((url) => url.endsWith('/packages/project/dist/lib/parse-worker.js'))).toBe(true)
  })
})
