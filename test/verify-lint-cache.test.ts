/**
 * The real `tiers verify` and its lint cache: a second run of an unchanged
 * project starts no lint worker and loads no lint engine, rule or preset,
 * and prints what a run without the cache prints; an edit of a contract
 * file lints again. `TIERS_NO_CACHE` turns the cache off. The cache's
 * module, `@verification-tiers/lint/text-cache`, loads none of them.
 *
 * Each run preloads `helpers/record-modules.mjs`, which writes down every
 * module the process and its workers resolve. Run `npx tsc -b` first.
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

/** The lint worker, the engine, the preset and its rules. */
const lintCode = /\/packages\/evidence\/dist\/lib\/lint-worker\.js$|\/node_modules\/unified-engine\/|\/packages\/remark-(?:preset-)?lint-[^/]+\/dist\//

/** `tiers verify --all --json` in `cwd`: exit code, output without times, and the lint modules it loaded. */
async function verifyLoading(cwd: string, env: Record<string, string | undefined> = {}) {
  const log = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-verify-modules-')), 'modules.txt')
  folders.push(path.dirname(log))
  await fs.writeFile(log, '')
  const run = await runProcess(process.execPath, ['--import', recorder, bin, 'verify', '--all', '--json'], {
    cwd,
    env: {TIERS_MAX_BLOCKS: undefined, GITHUB_ACTIONS: undefined, TIERS_NO_CACHE: undefined, ...env, TIERS_TEST_MODULES: log}
  })
  const modules = (await fs.readFile(log, 'utf8')).split('\n').filter((url) => lintCode.test(url))
  const stdout = run.stdout.replace(/"timestamp": "[^"]+"/g, '"timestamp": "…"').replace(/"duration_ms": \d+/g, '"duration_ms": 0').replace(/in \d+\.\d s/g, 'in 0.0 s')
  return {code: run.code, stdout, stderr: run.stderr, modules}
}

describe('tiers verify and its lint cache', {timeout: 120_000}, () => {
  it('@verification-tiers/lint/text-cache loads no engine, parser, rule, preset or reporter', async () => {
    const log = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-verify-modules-')), 'modules.txt')
    folders.push(path.dirname(log))
    await fs.writeFile(log, '')
    const script = "const cache = await import('@verification-tiers/lint/text-cache'); console.log(typeof cache.openTextLintCache)"
    const run = await runProcess(process.execPath, ['--import', recorder, '--input-type=module', '--eval', script], {cwd: root, env: {TIERS_TEST_MODULES: log}})
    expect(run).toEqual({code: 0, stdout: 'function\n', stderr: ''})
    const modules = (await fs.readFile(log, 'utf8')).split('\n')
    expect(modules.some((url) => url.endsWith('/packages/lint/dist/lib/text-cache.js'))).toBe(true)
    expect(modules.filter((url) => /\/node_modules\/(?:unified-engine|unified|remark-parse|micromark[^/]*|vfile-reporter[^/]*)\/|\/packages\/(?:remark-|lint-rule\/dist\/index\.js)/.test(url))).toEqual([])
  })


  it('a second run of an unchanged project loads no lint code and prints what a run without the cache prints; an edit lints again', async () => {
    const cwd = await exampleProject(folders, 'verification-tiers-verify-cache-', 'true')
    const first = await verifyLoading(cwd)
    expect(first.modules.some((url) => url.endsWith('/lint-worker.js'))).toBe(true)
    expect((await fs.stat(path.join(cwd, '.greenlight', 'tiers', '.verify-lint-cache'))).isFile()).toBe(true)
    const second = await verifyLoading(cwd)
    expect(second.modules).toEqual([])
    const uncached = await verifyLoading(cwd, {TIERS_NO_CACHE: '1'})
    expect(uncached.modules.some((url) => url.endsWith('/lint-worker.js'))).toBe(true)
    expect({...second, modules: []}).toEqual({...uncached, modules: []})
    expect({...second, modules: []}).toEqual({...first, modules: []})
    const contracts = path.join(cwd, '.greenlight', 'CONTRACTS.md')
    await fs.writeFile(contracts, (await fs.readFile(contracts, 'utf8')) + '\nA closing note.\n')
    const edited = await verifyLoading(cwd)
    expect(edited.modules.some((url) => url.endsWith('/lint-worker.js'))).toBe(true)
  })
})
