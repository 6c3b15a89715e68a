/**
 * Walking the folders that hold contracts fails closed, in every reader:
 * a link, a name that is not UTF-8, a folder deeper than the walk goes, a
 * file where a folder should be, and a contract file whose bytes are not
 * UTF-8 are each named, never skipped. (A folder that cannot be listed needs
 * `chmod 000`, which root ignores: it is tested through the bin, with the
 * modes held as for a user, in `test/fail-closed-reading.test.ts`.)
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {FileReadError} from '@verification-tiers/runtime'
import {afterAll, describe, expect, it} from 'vitest'
// The built loader, as the cli loads it: its markdown parser runs in a worker of the built files.
import {loadProject} from '@verification-tiers/project'
import type {ProjectProblem} from '@verification-tiers/project'

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures')
const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

async function scratch(): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'tiers-walk-')))
  folders.push(folder)
  return folder
}

/** A file or folder name of `text` with `bytes` (not UTF-8) in place of each `*`. */
const rawName = (folder: string, text: string, byte: number): Buffer =>
  Buffer.concat([
    Buffer.from(folder + path.sep),
    ...text.split('*').flatMap((part, index) => (index === 0 ? [Buffer.from(part)] : [Buffer.from([byte]), Buffer.from(part)]))
  ])

const contract = (id: string) => `### ${id}: Part\n\n**Slice:** S-01\n**Verification:** verify\n**Acceptance Criteria:**\n- ${id} is shown\n`

/** A `.greenlight` of `files` (and a passing test command), in a new folder. */
async function greenlight(files: Record<string, string>): Promise<string> {
  const dir = path.join(await scratch(), '.greenlight')
  for (const [name, text] of Object.entries({'config.json': '{"test": {"command": "true"}}', ...files})) {
    await fs.mkdir(path.dirname(path.join(dir, name)), {recursive: true})
    await fs.writeFile(path.join(dir, name), text)
  }
  return dir
}

/** The problems of `after` that `before` does not have, with paths relative to `dir`. */
function added(dir: string, before: readonly ProjectProblem[], after: readonly ProjectProblem[]): ProjectProblem[] {
  const had = new Set(before.map((problem) => JSON.stringify(problem)))
  return after.filter((problem) => !had.has(JSON.stringify(problem))).map((problem) => ({...problem, file: path.relative(dir, problem.file)}))
}

const link = (to: string) =>
  `Unexpected symbolic link to ${JSON.stringify(to)}, expected the file or folder itself: tiers follows no link in a folder of contracts`
const badFile = (byte: string) => `Unexpected file name with byte ${byte}, which is not UTF-8, expected a name in UTF-8 (rename it): it is not read`
const badFolder = (byte: string) =>
  `Unexpected folder name with byte ${byte}, which is not UTF-8, expected a name in UTF-8 (rename it): what it holds is not read`

describe('Greenlight contracts/', () => {
  it('names a link to a folder and to a contract file, with its target, and reads neither; a link to another file is left, as that file would be', async () => {
    const dir = await greenlight({'contracts/C-01.md': contract('C-01'), 'contracts/notes.txt': 'notes'})
    const outside = await scratch()
    await fs.writeFile(path.join(outside, 'C-02.md'), contract('C-02'))
    await fs.symlink(outside, path.join(dir, 'contracts', 'shared'))
    await fs.symlink(path.join(outside, 'C-02.md'), path.join(dir, 'contracts', 'C-02.md'))
    await fs.symlink('notes.txt', path.join(dir, 'contracts', 'more-notes.txt'))
    // A link to nothing, named as a contract file, may be meant as one: named too.
    await fs.symlink('gone.md', path.join(dir, 'contracts', 'C-03.md'))
    const project = await loadProject(dir)
    expect(project.contracts.map((loaded) => loaded.contract.label)).toEqual(['C-01 Part'])
    expect(added(dir, [], project.problems)).toEqual([
      {file: 'contracts/C-02.md', line: null, message: link(path.join(outside, 'C-02.md'))},
      {file: 'contracts/C-03.md', line: null, message: link('gone.md')},
      {file: 'contracts/shared', line: null, message: link(outside)}
    ])
  })

  it('names a file or a folder whose name is not UTF-8, its bytes shown as \\xFF; a file it would not read is left', async () => {
    const dir = await greenlight({'contracts/C-01.md': contract('C-01')})
    const contracts = path.join(dir, 'contracts')
    await fs.writeFile(rawName(contracts, 'f*.md', 0xff), contract('C-02'))
    await fs.mkdir(rawName(contracts, 'caf*', 0xe9))
    await fs.writeFile(Buffer.concat([rawName(contracts, 'caf*', 0xe9), Buffer.from('/C-03.md')]), contract('C-03'))
    await fs.writeFile(rawName(contracts, 'notes*.txt', 0xfe), 'notes')
    // A cut UTF-8 sequence (the first two bytes of `€`), then a valid `é`.
    await fs.writeFile(Buffer.concat([Buffer.from(contracts + path.sep), Buffer.from([0xe2, 0x82]), Buffer.from('é.md')]), contract('C-04'))
    const project = await loadProject(dir)
    expect(project.contracts.map((loaded) => loaded.contract.label)).toEqual(['C-01 Part'])
    expect(added(dir, [], project.problems)).toEqual([
      {file: 'contracts/\\xE2\\x82é.md', line: null, message: badFile('0xE2')},
      {file: 'contracts/caf\\xE9', line: null, message: badFolder('0xE9')},
      {file: 'contracts/f\\xFF.md', line: null, message: badFile('0xFF')}
    ])
  })

  it('reads a contract file 8 folders down, and names a folder deeper, whatever it holds', async () => {
    const eight = 'contracts/1/2/3/4/5/6/7/8'
    const dir = await greenlight({[`${eight}/C-01.md`]: contract('C-01'), [`${eight}/9/C-02.md`]: contract('C-02'), [`${eight}/empty/.keep`]: ''})
    const project = await loadProject(dir)
    expect(project.contracts.map((loaded) => [loaded.contract.label, path.relative(dir, loaded.file)])).toEqual([['C-01 Part', `${eight}/C-01.md`]])
    const deep = 'Unexpected folder nested more than 8 deep in contracts/, expected contract files at most 8 folders down; the folder is not read'
    expect(added(dir, [], project.problems)).toEqual([
      {file: `${eight}/9`, line: null, message: deep},
      {file: `${eight}/empty`, line: null, message: deep}
    ])
  })

  it('names a file where the contracts/ folder should be', async () => {
    const dir = await greenlight({'CONTRACTS.md': contract('C-01'), contracts: contract('C-02')})
    const project = await loadProject(dir)
    expect(project.contracts.map((loaded) => loaded.contract.label)).toEqual(['C-01 Part'])
    expect(added(dir, [], project.problems)).toEqual([{file: 'contracts', line: null, message: 'Unexpected file, expected a folder'}])
  })

  it('refuses a contract file whose bytes are not UTF-8, at the line and column of the first that is not', async () => {
    const dir = await greenlight({'contracts/C-01.md': contract('C-01')})
    const file = path.join(dir, 'contracts', 'C-02.md')
    await fs.writeFile(
      file,
      Buffer.concat([
        Buffer.from(contract('C-02').replace('C-02 is shown', 'the café')),
        Buffer.from('- the caf'),
        Buffer.from([0xe9]),
        Buffer.from(' is open\n')
      ])
    )
    await expect(loadProject(dir)).rejects.toThrow(
      new FileReadError(file, 'Unexpected byte 0xE9, which is not UTF-8, expected text in UTF-8 (save the file as UTF-8)', {line: 7, column: 10})
    )
  })
})

/** A copy of the fixture `name`'s `folder` (a tool's folder) in a new folder, and the problems it has as it is. */
async function toolCopy(name: string, folder: string): Promise<{dir: string; before: ProjectProblem[]}> {
  const dir = path.join(await scratch(), folder)
  await fs.cp(path.join(fixtures, name, ...(folder === 'specs' ? ['specs'] : [])), dir, {recursive: true})
  return {dir, before: (await loadProject(dir)).problems}
}

describe('spec-kit specs/', () => {
  it('names a linked feature folder and one whose name is not UTF-8; a link to a file beside the features is left', async () => {
    const {dir, before} = await toolCopy('speckit-garden', 'specs')
    const outside = await scratch()
    await fs.cp(path.join(dir, '003-harvest-notes'), path.join(outside, '004-compost'), {recursive: true})
    await fs.symlink(path.join(outside, '004-compost'), path.join(dir, '004-compost'))
    await fs.mkdir(rawName(dir, '005-caf*', 0xe9))
    await fs.writeFile(path.join(outside, 'ROADMAP.md'), '# Roadmap\n')
    await fs.symlink(path.join(outside, 'ROADMAP.md'), path.join(dir, 'ROADMAP.md'))
    const project = await loadProject(dir)
    expect(project.slices.map((slice) => slice.id)).toEqual(['001-plant-log', '002-watering-reminders', '003-harvest-notes'])
    expect(added(dir, before, project.problems)).toEqual([
      {file: '004-compost', line: null, message: link(path.join(outside, '004-compost'))},
      {file: '005-caf\\xE9', line: null, message: badFolder('0xE9')}
    ])
  })

  it('is recognised by a linked feature folder alone, so that the reader names it', async () => {
    const {speckit} = await import('../lib/tools/speckit.js')
    const outside = await scratch()
    await fs.cp(path.join(fixtures, 'speckit-garden', 'specs', '003-harvest-notes'), path.join(outside, '003-harvest-notes'), {recursive: true})
    const dir = path.join(await scratch(), 'specs')
    await fs.mkdir(dir)
    await fs.symlink(path.join(outside, '003-harvest-notes'), path.join(dir, '003-harvest-notes'))
    expect(await speckit.recognises(dir)).toBe(true)
    expect((await loadProject(dir)).problems).toEqual([
      {file: path.join(dir, '003-harvest-notes'), line: null, message: link(path.join(outside, '003-harvest-notes'))}
    ])
  })

  it('names a spec.md whose bytes are not UTF-8, at its line, and reads the other features', async () => {
    const {dir, before} = await toolCopy('speckit-garden', 'specs')
    const spec = path.join(dir, '003-harvest-notes', 'spec.md')
    await fs.writeFile(spec, Buffer.concat([await fs.readFile(spec), Buffer.from([0xc3, 0x28, 0x0a])]))
    const project = await loadProject(dir)
    const lines = (await fs.readFile(spec, 'latin1')).split('\n').length - 1
    expect(project.slices.map((slice) => slice.id)).toEqual(['001-plant-log', '002-watering-reminders'])
    expect(added(dir, before, project.problems)).toEqual([
      {file: '003-harvest-notes/spec.md', line: lines, message: 'Unexpected byte 0xC3, which is not UTF-8, expected text in UTF-8 (save the file as UTF-8)'}
    ])
  })
})

describe('OpenSpec changes/ and their specs/', () => {
  it('names a link and a name not in UTF-8 in a change’s specs/, a linked change, and a spec not in UTF-8', async () => {
    const {dir, before} = await toolCopy('openspec-lending', 'openspec')
    const change = path.join(dir, 'changes', 'tidy-shelf-labels')
    const outside = await scratch()
    await fs.cp(path.join(change, 'specs', 'shelving'), path.join(outside, 'signs'), {recursive: true})
    await fs.cp(change, path.join(outside, 'add-signs'), {recursive: true})
    await fs.symlink(path.join(outside, 'signs'), path.join(change, 'specs', 'signs'))
    await fs.mkdir(rawName(path.join(change, 'specs'), 'lab*ls', 0xe8))
    await fs.symlink(path.join(outside, 'add-signs'), path.join(dir, 'changes', 'add-signs'))
    const spec = path.join(dir, 'changes', 'add-due-reminders', 'specs', 'reminders', 'spec.md')
    await fs.writeFile(spec, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('### Requirement: X\n', 'utf16le')]))
    const project = await loadProject(dir)
    expect(added(dir, before, project.problems)).toEqual([
      {file: 'changes/add-signs', line: null, message: link(path.join(outside, 'add-signs'))},
      {
        file: 'changes/add-due-reminders/specs/reminders/spec.md',
        line: 1,
        message: 'Unexpected byte 0xFF, which is not UTF-8, expected text in UTF-8 (save the file as UTF-8)'
      },
      {file: 'changes/tidy-shelf-labels/specs/lab\\xE8ls', line: null, message: badFolder('0xE8')},
      {file: 'changes/tidy-shelf-labels/specs/signs', line: null, message: link(path.join(outside, 'signs'))}
    ])
  })
})

describe('Kiro specs/', () => {
  it('names a linked feature folder (no longer followed), a name not in UTF-8, and a requirements.md not in UTF-8', async () => {
    const {dir, before} = await toolCopy('kiro-garden', '.kiro')
    const outside = await scratch()
    await fs.cp(path.join(dir, 'specs', 'recipe-sharing'), path.join(outside, 'meal-plans'), {recursive: true})
    await fs.symlink(path.join(outside, 'meal-plans'), path.join(dir, 'specs', 'meal-plans'))
    await fs.mkdir(rawName(path.join(dir, 'specs'), 'comp*st', 0xf6))
    await fs.writeFile(rawName(path.join(dir, 'specs'), 'READ*ME.md', 0x80), '# Notes\n')
    const requirements = path.join(dir, 'specs', 'recipe-sharing', 'requirements.md')
    await fs.writeFile(requirements, Buffer.concat([Buffer.from('# Requirements\n\n'), Buffer.from('Caf'), Buffer.from([0xe9]), Buffer.from('\n')]))
    const project = await loadProject(dir)
    expect(project.slices.map((slice) => slice.id)).toEqual(['garden-watering'])
    expect(added(dir, before, project.problems)).toEqual([
      {file: 'specs/READ\\x80ME.md', line: null, message: badFile('0x80')},
      {file: 'specs/comp\\xF6st', line: null, message: badFolder('0xF6')},
      {file: 'specs/meal-plans', line: null, message: link(path.join(outside, 'meal-plans'))},
      {
        file: 'specs/recipe-sharing/requirements.md',
        line: 3,
        message: 'Unexpected byte 0xE9, which is not UTF-8, expected text in UTF-8 (save the file as UTF-8)'
      }
    ])
  })
})
