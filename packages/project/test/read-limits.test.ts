/**
 * How much of a project the gate reads, for every tool alike: each markdown
 * file at most `limits.file` bytes (a larger one is a problem, or for
 * Greenlight an error, naming it and the limit), and all the files read, the
 * graph too, at most `limits.total` (more is a `ProjectError` naming the
 * project, the file it ran over at and the limit). The settings file raises
 * both (`limits.file_mib`, `limits.total_mib`).
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {loadProject} from '@verification-tiers/project'
import {afterAll, describe, expect, it} from 'vitest'
import {ProjectError} from '../lib/errors.js'
import {kiro} from '../lib/tools/kiro.js'
import {openspec} from '../lib/tools/openspec.js'
import {speckit} from '../lib/tools/speckit.js'

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures')
const root = path.resolve(fixtures, '..', '..', '..', '..')
const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const verify = {defaultTier: 'verify', optionalTasks: 'show'} as const
const total = (dir: string, bytes: number, at: string, settings: string) =>
  `${dir}: Unexpected files of more than ${bytes} bytes in all for tiers to read (at ${at}), expected at most ${bytes} bytes: fewer or smaller files, or raise \`limits.total_mib\` in ${settings} (32 at most)`
const tooLarge = (bytes: number, limit: number) =>
  `Unexpected size of ${bytes} bytes, expected at most ${limit} bytes; raise \`limits.file_mib\` in tiers.json (16 at most)`

/** A temporary copy of `from`, with `settings` written to `file` in it. */
async function copyWith(from: string, file: string, settings: unknown): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-limits-')))
  folders.push(folder)
  const dir = path.join(folder, path.basename(from))
  await fs.cp(from, dir, {recursive: true})
  await fs.writeFile(path.join(dir, file), JSON.stringify(settings))
  return dir
}

describe('the read limits of the tools’ readers', () => {
  const cases = [
    // Read in this order: specs/README.md (241 bytes), then garden-watering's requirements.md (1,331) and tasks.md (546).
    {
      name: 'kiro',
      tool: kiro,
      dir: path.join(fixtures, 'kiro-garden'),
      at: 'specs/garden-watering/tasks.md',
      large: ['specs/garden-watering/requirements.md', 1331]
    },
    // add-due-reminders (proposal, two delta specs, tasks: 1,989 bytes), then tidy-shelf-labels' proposal.
    {
      name: 'openspec',
      tool: openspec,
      dir: path.join(fixtures, 'openspec-lending'),
      at: 'changes/tidy-shelf-labels/proposal.md',
      large: ['changes/add-due-reminders/specs/reminders/spec.md', 935]
    },
    // 001-plant-log's spec.md and tasks.md (1,510 bytes), then 002's spec.md.
    {
      name: 'spec-kit',
      tool: speckit,
      dir: path.join(fixtures, 'speckit-garden', 'specs'),
      at: '002-watering-reminders/spec.md',
      large: ['001-plant-log/spec.md', 1273]
    }
  ] as const

  it.for(cases)('$name: the total, with the file it ran over at', async ({tool, dir, at}) => {
    const reading = tool.read(dir, {...verify, limits: {file: 1_000_000, total: 2000}})
    await expect(reading).rejects.toThrow(ProjectError)
    await expect(reading).rejects.toThrow(total(dir, 2000, at, 'tiers.json'))
    // Under a larger total, it is read.
    const read = await tool.read(dir, {...verify, limits: {file: 1_000_000, total: 1_000_000}})
    expect(read.slices.length).toBeGreaterThan(0)
  })

  it.for(cases)('$name: a file over the file limit is a problem naming it', async ({tool, dir, large: [file, bytes]}) => {
    const reading = await tool.read(dir, {...verify, limits: {file: 900, total: 1_000_000}})
    expect(reading.problems).toContainEqual({file: path.join(dir, file), line: null, message: tooLarge(bytes, 900)})
    const read = await tool.read(dir, {...verify, limits: {file: bytes, total: 1_000_000}})
    expect(read.problems.map((problem) => problem.message)).not.toContainEqual(expect.stringContaining('Unexpected size'))
  })

  it('takes the limits from tiers.json, in MiB', async () => {
    const dir = await copyWith(path.join(fixtures, 'speckit-garden', 'specs'), 'tiers.json', {limits: {total_mib: 0.002}})
    // 0.002 MiB is 2,097 bytes.
    await expect(loadProject(dir)).rejects.toThrow(total(dir, 2097, '002-watering-reminders/spec.md', 'tiers.json'))
    await fs.writeFile(path.join(dir, 'tiers.json'), JSON.stringify({limits: {total_mib: 0.01, file_mib: 0.001}}))
    const loaded = await loadProject(dir)
    expect(loaded.problems).toContainEqual({file: path.join(dir, '001-plant-log', 'spec.md'), line: null, message: tooLarge(1273, 1048)})
  })

  it('counts a Greenlight graph and contract files alike, from config.json', async () => {
    const dir = await copyWith(path.join(root, 'content', 'examples', 'greenlight-project', '.greenlight'), 'config.json', {limits: {total_mib: 0.002}})
    // GRAPH.json (309 bytes), then CONTRACTS.md (1,962).
    await expect(loadProject(dir)).rejects.toThrow(total(dir, 2097, 'CONTRACTS.md', 'config.json'))
  })
})
