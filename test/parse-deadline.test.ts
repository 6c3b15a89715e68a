/**
 * Contract files the parser cannot read in reasonable time or depth, through
 * the cli (its `main`, in the test process): markdown nested thousands deep is one line naming the file
 * and line, and a file that takes longer than the parse deadline of a file
 * (`TIERS_PARSE_TIMEOUT`), or of all a run parses (`TIERS_PARSE_TOTAL_TIMEOUT`),
 * is one line naming the file, what its lines hold (size, contract headings,
 * lists, nesting) and what to change; all exit 2, never a stack trace or a
 * hang. The messages are exact; how long a parse takes is `npm run bench`'s.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, it} from 'vitest'
import {builtBin, exampleProject, fixtureCopy, root, runTiers as runBin} from './helpers/tiers-bin.js'
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

/** What the deadline messages say of a file: its size, then what its lines hold. */
const shape = (bytes: number, what: string) => `${bytes} bytes: ${what}`

/** `count` ordinary contracts (ids from C-1000), each with a list of one item, joined by blank lines: 77 bytes each. */
const ordinary = (count: number) =>
  Array.from({length: count}, (_, n) => `### C-${1000 + n}: X\n\n**Verification:** verify\n**Acceptance Criteria:**\n- item ${n}\n`).join('\n')

/** The size of a project's file, as the message counts it. */
const bytesOf = async (folder: string, file: string) => (await fs.stat(path.join(folder, '.greenlight', file))).size

describe('the parse deadline of a file', () => {
  it('a contract file nested too deep for TIERS_PARSE_TIMEOUT: one line naming it, its lists and their nesting, exit 2', async ({expect}) => {
    // A list nested 300 deep, each level indented further: seconds of remark-parse for 90 kB. The deadline is
    // half a second, so that on a busy machine the project's other files still parse within it.
    const nested = Array.from({length: 300}, (_, level) => ' '.repeat(2 * level) + '- step').join('\n')
    const {folder} = await projectWith('contracts/C-06.md', nested)
    const what = shape(await bytesOf(folder, 'contracts/C-06.md'), '1 contract heading, 300 lists of 300 items, lists and quotes nested at most 300 deep')
    for (const args of [...commands, ['status']]) {
      expect(await runTiers(folder, args, '', {TIERS_PARSE_TIMEOUT: '0.5'})).toEqual({
        code: 2,
        stdout: '',
        stderr: `tiers: .greenlight/contracts/C-06.md: Unexpected markdown that takes over 0.5 s to parse (${what}), expected lists and quotes nested less deeply (or more seconds in TIERS_PARSE_TIMEOUT)\n`
      })
    }
    // GRAPH.md is parsed under the same deadline.
    const graph = await projectWith('GRAPH.md', nested, 'graph-md')
    const graphWhat = shape(await bytesOf(graph.folder, 'GRAPH.md'), '0 contract headings, 301 lists of 302 items, lists and quotes nested at most 300 deep')
    expect(await runTiers(graph.folder, ['status'], '', {TIERS_PARSE_TIMEOUT: '0.5'})).toEqual({
      code: 2,
      stdout: '',
      stderr: `tiers: .greenlight/GRAPH.md: Unexpected markdown that takes over 0.5 s to parse (${graphWhat}), expected lists and quotes nested less deeply (or more seconds in TIERS_PARSE_TIMEOUT)\n`
    })
    // With a deadline it can meet, the same file is read (a long one: the default's 10 s is too short on a busy machine).
    const read = await runTiers(folder, ['contracts'], '', {TIERS_PARSE_TIMEOUT: '300'})
    expect(read.code).toBe(0)
    expect(read.stdout).toContain('C-06 ExportCsv')
  })

  it('a contract file too large for TIERS_PARSE_TIMEOUT: its contracts and lists, and to split it, never nesting', async ({expect}) => {
    // 10,000 contracts (770 kB): seconds of parsing, in time linear in their number, but over half a second.
    const {folder} = await projectWith('contracts/C-06.md', ordinary(10_000))
    const what = shape(
      await bytesOf(folder, 'contracts/C-06.md'),
      '10001 contract headings, 10000 lists of 10000 items, lists and quotes nested at most 1 deep'
    )
    expect(await runTiers(folder, ['contracts'], '', {TIERS_PARSE_TIMEOUT: '0.5'})).toEqual({
      code: 2,
      stdout: '',
      stderr: `tiers: .greenlight/contracts/C-06.md: Unexpected markdown that takes over 0.5 s to parse (${what}), expected a smaller file: the contracts split over several files in contracts/ (or more seconds in TIERS_PARSE_TIMEOUT)\n`
    })
    // A GRAPH.md too large: the graph as GRAPH.json.
    const graph = await projectWith('GRAPH.md', ordinary(10_000), 'graph-md')
    const graphWhat = shape(
      await bytesOf(graph.folder, 'GRAPH.md'),
      '10000 contract headings, 10001 lists of 10002 items, lists and quotes nested at most 1 deep'
    )
    expect(await runTiers(graph.folder, ['status'], '', {TIERS_PARSE_TIMEOUT: '0.5'})).toEqual({
      code: 2,
      stdout: '',
      stderr: `tiers: .greenlight/GRAPH.md: Unexpected markdown that takes over 0.5 s to parse (${graphWhat}), expected a smaller GRAPH.md, or the graph in GRAPH.json (read without the markdown parser) (or more seconds in TIERS_PARSE_TIMEOUT)\n`
    })
  })
})

describe('the parse deadline of a run', () => {
  it('files that together take longer than TIERS_PARSE_TOTAL_TIMEOUT: the file the time ran out in, what it holds and what was read before it', async ({
    expect
  }) => {
    const {folder} = await projectWith('contracts/C-06.md', ordinary(10_000))
    const what = shape(
      await bytesOf(folder, 'contracts/C-06.md'),
      '10001 contract headings, 10000 lists of 10000 items, lists and quotes nested at most 1 deep'
    )
    const before = await bytesOf(folder, 'CONTRACTS.md')
    const cache = path.join(folder, 'user-cache')
    const stop = await runTiers(folder, ['stop-hook'], '{"session_id": "deadline"}', {
      TIERS_PARSE_TIMEOUT: '600',
      TIERS_PARSE_TOTAL_TIMEOUT: '0.5',
      XDG_CACHE_HOME: cache,
      TIERS_NO_CACHE: undefined
    })
    const message = `${path.join(folder, '.greenlight', 'contracts', 'C-06.md')}: Unexpected markdown files that take over 0.5 s to parse in all: the time ran out in this one (${what}) after 1 other file of ${before} bytes, expected fewer or smaller contract files (or more seconds in TIERS_PARSE_TOTAL_TIMEOUT); the files read in time are kept in the contracts cache, for the next run`
    expect(stop.code).toBe(0)
    expect(JSON.parse(stop.stdout)).toEqual({decision: 'block', reason: expect.stringContaining(`\n${message}\n`)})
    // CONTRACTS.md, read in time, is in the contracts cache: the next run starts after it.
    const entries = await fs.readdir(path.join(cache, 'verification-tiers', 'contracts'), {recursive: true})
    expect(entries.filter((entry) => /contracts-[\da-f]{64}\.json$/.test(entry))).toHaveLength(1)
    // Through the other commands, the same line.
    expect(await runTiers(folder, ['contracts'], '', {TIERS_PARSE_TIMEOUT: '600', TIERS_PARSE_TOTAL_TIMEOUT: '0.5', TIERS_NO_CACHE: '1'})).toEqual({
      code: 2,
      stdout: '',
      stderr: `tiers: .greenlight/contracts/C-06.md: ${message.slice(message.indexOf('Unexpected'))}\n`
    })
  })
})

describe('the parse deadline of a spec-driven tool’s folder', () => {
  // Emphasis and link openers markdown can only resolve by comparing each with the others: minutes of parsing in 141 kB.
  const slow = `\n${'**a'.repeat(20_000)}\n${'[*'.repeat(20_000)}\n${'*_'.repeat(20_000)}\n`

  it('a spec-kit spec.md that takes longer than TIERS_PARSE_TOTAL_TIMEOUT: the stop hook blocks naming the folder, never a hang', async ({expect}) => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-tool-deadline-'))
    folders.push(folder)
    await fs.cp(path.join(root, 'packages', 'project', 'test', 'fixtures', 'speckit-garden'), folder, {recursive: true})
    await fs.appendFile(path.join(folder, 'specs', '001-plant-log', 'spec.md'), slow)
    const specs = path.join(folder, 'specs')
    const message = `${specs}: Unexpected markdown files that take over 0.5 s to parse in all, expected fewer or smaller files, or lists, quotes and emphasis nested less deeply (or more seconds in TIERS_PARSE_TOTAL_TIMEOUT)`
    // Through the real bin: the reader's thread is ended, and the hook answers.
    const stop = await runBin(folder, ['stop-hook'], JSON.stringify({session_id: 'deadline', cwd: folder}), {TIERS_PARSE_TOTAL_TIMEOUT: '0.5'})
    expect({code: stop.code, stderr: stop.stderr}).toEqual({code: 0, stderr: ''})
    expect(JSON.parse(stop.stdout)).toEqual({
      decision: 'block',
      reason: `HOLD: Cannot stop - verification cannot be checked.\n${message}\nFix this, then run tiers verify --all to verify all acceptance criteria before completing.`
    })
    expect(await runTiers(folder, ['status'], '', {TIERS_PARSE_TOTAL_TIMEOUT: '0.5'})).toEqual({
      code: 2,
      stdout: '',
      stderr: `tiers: specs: ${message.slice(message.indexOf('Unexpected'))}\n`
    })
  })
})
