/**
 * Contract files the parser cannot read in reasonable time or depth, through
 * the cli (its `main`, in the test process): markdown nested thousands deep is one line naming the file
 * and line, and a file that takes longer than the parse deadline
 * (`TIERS_PARSE_TIMEOUT`) is one line naming the file; both exit 2, never a
 * stack trace or a hang.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, it} from 'vitest'
import {builtBin, exampleProject, fixtureCopy} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers} from './helpers/tiers-here.js'

const folders: string[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A copy of the example project (or of a fixture) with `markdown` added at the end of `file`; the line it starts on. */
async function projectWith(file: string, markdown: string, fixture?: string): Promise<{folder: string; line: number}> {
  const folder = fixture ? await fixtureCopy(folders, fixture) : await exampleProject(folders, 'verification-tiers-parse-deadline-', 'true')
  const target = path.join(folder, '.greenlight', file)
  const before = (await fs.readFile(target, 'utf8')).replace(/\n*$/, '\n\n')
  await fs.writeFile(target, before + markdown + '\n')
  return {folder, line: before.split('\n').length}
}

const commands = [['contracts'], ['verify', 'S-01'], ['checkpoint', 'S-01']]

describe('markdown nested thousands deep', () => {
  // Each shape through one command, each command at least once: the commands share the reader, whose depth limit `packages/project/test/nesting.test.ts` checks at any depth.
  it.concurrent.for([
    ['emphasis', '*'.repeat(3000) + 'a' + '*'.repeat(3000), commands[0]!],
    ['quotes', '>'.repeat(8000) + ' a', commands[1]!],
    ['list markers', '- '.repeat(1200) + 'a', commands[2]!],
    ['quotes and lists', '> - '.repeat(1000) + 'a', commands[0]!]
  ] as const)('%s: one line naming the file and line, exit 2', async ([, markdown, args], {expect}) => {
    const {folder, line} = await projectWith('CONTRACTS.md', markdown)
    // A deadline far away: on a busy machine thousands of `*` may take over the default 10 s.
    expect(await runTiers(folder, args, '', {TIERS_PARSE_TIMEOUT: '600'})).toEqual({
      code: 2,
      stdout: '',
      stderr: `tiers: .greenlight/CONTRACTS.md:${line}: Unexpected markdown nested over 1000 levels deep (emphasis, lists or quotes), expected at most 1000\n`
    })
  })
})

describe('a GRAPH.md nested thousands deep', () => {
  it('one line naming the file and line, exit 2', async ({expect}) => {
    const {folder, line} = await projectWith('GRAPH.md', '>'.repeat(8000) + ' a', 'graph-md')
    expect(await runTiers(folder, ['status'], '', {TIERS_PARSE_TIMEOUT: '600'})).toEqual({
      code: 2,
      stdout: '',
      stderr: `tiers: .greenlight/GRAPH.md:${line}: Unexpected markdown nested over 1000 levels deep (emphasis, lists or quotes), expected at most 1000\n`
    })
  })
})

describe('the parse deadline', () => {
  it('a contract file that takes longer to parse than TIERS_PARSE_TIMEOUT: one line naming it, exit 2', async ({expect}) => {
    // A list nested 300 deep, each level indented further: seconds of remark-parse for 90 kB. The deadline is
    // half a second, so that on a busy machine the project's other files still parse within it.
    const nested = Array.from({length: 300}, (_, level) => ' '.repeat(2 * level) + '- step').join('\n')
    const {folder} = await projectWith('contracts/C-06.md', nested)
    for (const args of [...commands, ['status']]) {
      expect(await runTiers(folder, args, '', {TIERS_PARSE_TIMEOUT: '0.5'})).toEqual({
        code: 2,
        stdout: '',
        stderr: `tiers: .greenlight/contracts/C-06.md: Unexpected markdown that takes over 0.5 s to parse, expected less deeply nested lists, quotes and emphasis, or the contracts split over several files in contracts/\n`
      })
    }
    // GRAPH.md is parsed under the same deadline.
    const graph = await projectWith('GRAPH.md', nested, 'graph-md')
    expect(await runTiers(graph.folder, ['status'], '', {TIERS_PARSE_TIMEOUT: '0.5'})).toEqual({
      code: 2,
      stdout: '',
      stderr: 'tiers: .greenlight/GRAPH.md: Unexpected markdown that takes over 0.5 s to parse, expected less deeply nested lists, quotes and emphasis, or the contracts split over several files in contracts/\n'
    })
    // With a deadline it can meet, the same file is read (a long one: the default's 10 s is too short on a busy machine).
    const read = await runTiers(folder, ['contracts'], '', {TIERS_PARSE_TIMEOUT: '300'})
    expect(read.code).toBe(0)
    expect(read.stdout).toContain('C-06 ExportCsv')
  })
})
