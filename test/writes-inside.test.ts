/**
 * `tiers lint --fix` and `tiers init` write only inside the project they were
 * run for: a symbolic link (a file's, or a folder's above it) that leads out
 * of the project is refused with one line naming the link and its target,
 * before anything is written. A link that stays inside is followed.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, it} from 'vitest'
import {builtBin, linkedProject} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers} from './helpers/tiers-here.js'

const folders: string[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A temporary folder outside every project, its real path, with `files` written. */
async function outsideFolder(files: Record<string, string>): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-outside-')))
  folders.push(folder)
  for (const [name, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(folder, name)), {recursive: true})
    await fs.writeFile(path.join(folder, name), text)
  }
  return folder
}

/** Every file and link below `folder` (not `node_modules`): a file's text, a link's target. */
async function snapshot(folder: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {}
  for (const entry of await fs.readdir(folder, {recursive: true, withFileTypes: true})) {
    const full = path.join(entry.parentPath, entry.name)
    const relative = path.relative(folder, full)
    if (relative.split(path.sep)[0] === 'node_modules') continue
    if (entry.isSymbolicLink()) found[relative] = `-> ${await fs.readlink(full)}`
    else if (entry.isFile()) found[relative] = await fs.readFile(full, 'utf8')
  }
  return found
}

const presetConfig = JSON.stringify({plugins: ['remark-preset-lint-verification-tiers']})
/** A tier in the wrong case: `--fix` writes `verify`. */
const wrongCase = ['### C-01: Refund', '', '**Verification:** Verify', '**Acceptance Criteria:**', '- A refund is recorded', ''].join('\n')
const env = {FORCE_COLOR: undefined, NO_COLOR: undefined}
const refusal = (link: string, target: string) =>
  `${link}: Unexpected symbolic link to ${target}, outside the project, expected files inside the project folder; nothing was written`

describe('tiers lint --fix', () => {
  it.concurrent.for([
    ['a file linked out of the project', 'linked.md', 'linked.md', 'contracts.md'],
    ['a folder linked out of the project', 'notes/contracts.md', 'notes', '']
  ])('%s: refused, one line, nothing written', async ([, given, link, targetName], {expect}) => {
    const outside = await outsideFolder({'contracts.md': wrongCase})
    const cwd = await linkedProject(folders, 'verification-tiers-writes-', {'.remarkrc.json': presetConfig, 'inside.md': wrongCase})
    await fs.symlink(path.join(outside, targetName), path.join(cwd, link))
    const [projectBefore, outsideBefore] = [await snapshot(cwd), await snapshot(outside)]
    const run = await runTiers(cwd, ['lint', '--fix', '--no-color', 'inside.md', given], '', env)
    expect(run).toEqual({code: 2, stdout: '', stderr: `tiers: ${refusal(link, path.join(outside, targetName))}\n`})
    expect(await snapshot(cwd)).toEqual(projectBefore)
    expect(await snapshot(outside)).toEqual(outsideBefore)
  })

  it.concurrent('a link inside the project is followed and its target fixed', async ({expect}) => {
    const cwd = await linkedProject(folders, 'verification-tiers-writes-', {'.remarkrc.json': presetConfig, 'real/contracts.md': wrongCase})
    await fs.symlink(path.join(cwd, 'real', 'contracts.md'), path.join(cwd, 'alias.md'))
    const run = await runTiers(cwd, ['lint', '--fix', '--no-color', 'alias.md'], '', env)
    expect(run).toEqual({code: 0, stdout: '', stderr: 'fixed alias.md:3:19: `Verify` → `verify` (verification-tier)\n'})
    expect(await fs.readFile(path.join(cwd, 'real', 'contracts.md'), 'utf8')).toBe(wrongCase.replace('Verify', 'verify'))
    expect(await fs.readlink(path.join(cwd, 'alias.md'))).toBe(path.join(cwd, 'real', 'contracts.md'))
  })
})

describe('tiers init', () => {
  it.concurrent.for([
    ['the agent settings folder linked out', '.claude', ''],
    ['the remark configuration linked out, to nothing yet', '.remarkrc.json', 'rc.json'],
    ['the CI folder linked out', '.github', '']
  ])('%s: refused, one line, nothing written', async ([, link, targetName], {expect}) => {
    const outside = await outsideFolder({'keep.txt': 'kept\n'})
    const cwd = await linkedProject(folders, 'verification-tiers-writes-', {'package.json': '{"name": "shop"}\n'})
    await fs.symlink(path.join(outside, targetName), path.join(cwd, link))
    const [projectBefore, outsideBefore] = [await snapshot(cwd), await snapshot(outside)]
    const run = await runTiers(cwd, ['init', '--ci', 'github'])
    expect(run).toEqual({code: 2, stdout: '', stderr: `tiers: ${refusal(link, path.join(outside, targetName))}\n`})
    expect(await snapshot(cwd)).toEqual(projectBefore)
    expect(await snapshot(outside)).toEqual(outsideBefore)
  })

  it.concurrent('a folder linked inside the project is written through', async ({expect}) => {
    const cwd = await linkedProject(folders, 'verification-tiers-writes-', {'package.json': '{"name": "shop"}\n', 'config/agent/.keep': ''})
    await fs.symlink(path.join(cwd, 'config', 'agent'), path.join(cwd, '.claude'))
    const run = await runTiers(cwd, ['init'])
    expect(run.code).toBe(0)
    expect(JSON.parse(await fs.readFile(path.join(cwd, 'config', 'agent', 'settings.json'), 'utf8'))).toEqual({
      hooks: {Stop: [{hooks: [{type: 'command', command: expect.stringContaining('tiers stop-hook')}]}]}
    })
  })
})
