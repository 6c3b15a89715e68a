/**
 * The gate’s bounds, through the cli (its `main`, in the test process; standard input that never ends, through the real bin): `config.json` checked as the
 * contracts are (a misspelt key, a key given twice, an empty test command),
 * the checkpoint saying when no test command ran, standard input read up to
 * its limit and no further, control characters of user-written text shown
 * escaped, the lint engine’s configuration files checked before it starts,
 * and a process a check started with `setsid` ended with the check.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import {execFile, spawn} from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import {promisify} from 'node:util'
import fc from 'fast-check'
import {editDistance} from '@verification-tiers/contracts/edit-distance'
import {parseProjectConfig, settingsKeys} from '@verification-tiers/runtime'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {isRunning, readPid} from './helpers/processes.js'
import {builtBin, exampleProject, git, runTiersBounded, tiersBin} from './helpers/tiers-bin.js'
import {runTiersPiped as runTiers} from './helpers/tiers-here.js'
import type {Run} from './helpers/tiers-bin.js'

const execFileAsync = promisify(execFile)
const folders: string[] = []
const escaped: number[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  for (const pid of escaped) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {}
  }
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const project = (testCommand = 'true') => exampleProject(folders, 'verification-tiers-gate-bounds-', testCommand)
const configFile = (folder: string) => path.join(folder, '.greenlight', 'config.json')

/** Run the bin with a file (or device) as standard input, killed after `limitMs` if it has not ended. */
function tiersFrom(cwd: string, args: string[], input: string, limitMs = 20_000): Promise<Run> {
  return runTiersBounded(cwd, args, {inputFile: input, limitMs})
}

describe('config.json: a mistake never turns the test check off in silence', () => {
  it.concurrent.for([
    [
      '{"test": {"command": ""}}',
      '1:22: Unexpected empty `test.command`, expected the project’s test command, such as `npm test`, or no `command` key to run none'
    ],
    ['{"test": {"command": null}}', '1:22: Unexpected `test.command` `null`, expected the project’s test command as a string'],
    ['{"test": {"commnad": "true"}}', '1:22: Unexpected key `test.commnad`, expected `test.command` (did you mean `command`?)'],
    ['{"tests": {"command": "true"}}', '1:11: Unexpected key `tests`, expected `test` (did you mean `test`?)'],
    ['{"Test": {"command": "true"}}', '1:10: Unexpected key `Test`, expected `test` (did you mean `test`?)'],
    ['{"test": {"command": "true"},\n "test": {"command": ""}}', '2:2: Unexpected second `test`, expected each key once: JSON keeps only the last one'],
    ['{"test": {"command": "true", "command": " "}}', '1:30: Unexpected second `command` in `test`, expected each key once: JSON keeps only the last one']
  ])('%s', async ([text, reason], {expect}) => {
    const folder = await project()
    await fs.writeFile(configFile(folder), text)
    for (const args of [['status'], ['verify', 'S-01'], ['checkpoint', 'S-01']]) {
      expect(await runTiers(folder, args)).toEqual({code: 2, stdout: '', stderr: `tiers: .greenlight/config.json:${reason}\n`})
    }
  })

  it.concurrent('keys of other tools, far from every key tiers reads, are left to them', async ({expect}) => {
    const folder = await project()
    await fs.writeFile(
      configFile(folder),
      '{"mode": "yolo", "profiles": {}, "test": {"command": "true", "filter_flag": "-run"}, "workflow": {"security_scan": true}}'
    )
    expect((await runTiers(folder, ['status'])).code).toBe(0)
  })

  it.concurrent('with no test command the checkpoint says so instead of ALL TESTS PASSING', async ({expect}) => {
    const folder = await project()
    await fs.writeFile(configFile(folder), '{"mode": "yolo"}')
    expect((await runTiers(folder, ['verify', 'S-01'])).code).toBe(0)
    const run = await runTiers(folder, ['checkpoint', 'S-01'])
    expect(run.code).toBe(0)
    expect(run.stdout.split('\n')[0]).toBe('CHECKS PASSING, NO TEST COMMAND CONFIGURED — Slice S-01: Campaign Cards')
    expect(run.stdout).not.toContain('ALL TESTS PASSING')
  })

  it('a key tiers reads, misspelt within two edits or in another case, is named with the key meant (property)', () => {
    const letters = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz_ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split(''))
    const edit = (kinds: string[]) => fc.tuple(fc.constantFrom(...kinds), fc.nat(), letters)
    // A swap counts as one edit only alone: after another edit it may stand for three.
    const edits = fc.oneof(
      fc.array(edit(['insert', 'delete', 'replace', 'case']), {minLength: 1, maxLength: 2}),
      fc.array(edit(['swap']), {minLength: 1, maxLength: 1})
    )
    const configKeys = settingsKeys('config.json')
    const places = Object.entries(configKeys).flatMap(([parent, keys]) => keys.map((key) => ({parent, key})))
    fc.assert(
      fc.property(fc.constantFrom(...places), edits, ({parent, key}, edits) => {
        let misspelt = key
        for (const [kind, at, letter] of edits) {
          const index = at % (misspelt.length + 1)
          if (kind === 'insert') misspelt = misspelt.slice(0, index) + letter + misspelt.slice(index)
          else if (kind === 'delete' && misspelt.length > 1) misspelt = misspelt.slice(0, index) + misspelt.slice(index + 1)
          else if (kind === 'replace') misspelt = misspelt.slice(0, index) + letter + misspelt.slice(index + 1)
          else if (kind === 'swap' && index + 1 < misspelt.length)
            misspelt = misspelt.slice(0, index) + misspelt[index + 1] + misspelt[index] + misspelt.slice(index + 2)
          else if (kind === 'case') misspelt = misspelt.toUpperCase()
        }
        // An edit that gives back a key tiers reads is no misspelling.
        const siblings = configKeys[parent] as readonly string[]
        fc.pre(!siblings.includes(misspelt) && misspelt !== '')
        expect(editDistance(misspelt.toLowerCase(), key.toLowerCase())).toBeLessThanOrEqual(2)
        const value = key === 'rejection_threshold' ? 3 : key === 'command' ? '"true"' : key === 'visual_checkpoint' ? 'true' : '{}'
        const inner = `{${JSON.stringify(misspelt)}: ${value}}`
        const text = parent === '' ? inner : `{${JSON.stringify(parent)}: ${inner}}`
        let message = ''
        try {
          parseProjectConfig('config.json', text)
        } catch (error) {
          message = (error as Error).message
        }
        // The key named is the one missing at this level (possibly a sibling the misspelling is nearer to).
        expect(message).toMatch(
          new RegExp(
            `Unexpected key \`${(parent ? `${parent}.` : '') + misspelt.replace(/[$.]/g, '\\$&')}\`, expected .*\\(did you mean \`(${siblings.join('|')})\`\\?\\)$`
          )
        )
      }),
      {numRuns: 300}
    )
  })
})

describe.skipIf(process.platform === 'win32')('standard input: read up to its limit and no further', () => {
  it.concurrent('the stop hook on /dev/zero answers and exits, reading 1 MiB at most', {timeout: 30_000}, async ({expect}) => {
    const folder = await project()
    const run = await tiersFrom(folder, ['stop-hook'], '/dev/zero')
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({decision: 'block'})
    expect(run.stderr).toBe('tiers: warning: Unexpected stop-hook input of more than 1048576 bytes, expected at most 1048576 bytes; read as empty input\n')
  })

  it.concurrent('tiers verdict - on /dev/zero fails with one line', {timeout: 30_000}, async ({expect}) => {
    const folder = await project()
    expect(await tiersFrom(folder, ['verdict', '-'], '/dev/zero')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'tiers: Unexpected standard input of more than 1048576 bytes, expected at most 1048576 bytes\n'
    })
  })

  it.concurrent('stop-hook input that starts with a byte order mark is read', async ({expect}) => {
    const folder = await project()
    const run = await runTiers(folder, ['stop-hook'], `\uFEFF${JSON.stringify({session_id: 's1', cwd: folder})}`)
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toMatchObject({decision: 'block'})
  })
})

describe('control characters of user-written text are printed escaped', () => {
  // Every character that can move the cursor, erase, or reorder text on a terminal.
  const unsafe = fc.oneof(
    fc.integer({min: 0, max: 0x1f}).filter((code) => code !== 0x09 && code !== 0x0a),
    fc.integer({min: 0x7f, max: 0x9f}),
    fc.constantFrom(0x061c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069)
  )
  const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

  it('in any criterion, on stdout and in JSON (property over the bin)', {timeout: 120_000}, async () => {
    const folder = await project()
    const contracts = path.join(folder, '.greenlight', 'CONTRACTS.md')
    const original = await fs.readFile(contracts, 'utf8')
    await fc.assert(
      fc.asyncProperty(fc.array(unsafe, {minLength: 1, maxLength: 4}), fc.string({maxLength: 8}), async (codes, words) => {
        const inserted = codes.map((code) => String.fromCodePoint(code)).join(words.replace(/[\n\r`*_[\]<>#\\]/g, ''))
        await fs.writeFile(contracts, original.replace('- Each card shows the campaign name', `- Each card shows ${inserted}the campaign name`))
        for (const args of [['contracts'], ['contracts', '--json']]) {
          const run = await runTiers(folder, args)
          expect(run.code).toBe(0)
          expect(run.stdout).toContain('the campaign name')
          expect(raw.test(run.stdout), JSON.stringify(run.stdout)).toBe(false)
          expect(raw.test(run.stderr)).toBe(false)
        }
      }),
      {numRuns: 8}
    )
  })

  it.concurrent('an escape sequence that would erase the line above shows as text', async ({expect}) => {
    const folder = await project()
    const contracts = path.join(folder, '.greenlight', 'CONTRACTS.md')
    await fs.writeFile(
      contracts,
      (await fs.readFile(contracts, 'utf8')).replace('- Each card shows the campaign name', '- Each card shows \u001b[1A\u001b[2Kthe campaign name')
    )
    const run = await runTiers(folder, ['contracts'])
    expect(run.stdout).toContain('Each card shows \\x1b[1A\\x1b[2Kthe campaign name')
  })
})

describe.skipIf(process.platform === 'win32')('tiers verify and the lint engine’s configuration files', () => {
  it.concurrent.for(['.remarkrc.json', 'package.json'])('a FIFO at %s is an error naming it, never a hang', {timeout: 30_000}, async (name, {expect}) => {
    const folder = await project()
    await execFileAsync('mkfifo', [path.join(folder, name)])
    const run = await new Promise<Run>((resolve) => {
      const child = spawn(process.execPath, [tiersBin, 'verify', 'S-01'], {cwd: folder, stdio: ['ignore', 'pipe', 'pipe'], detached: true})
      const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 20_000)
      let stdout = ''
      let stderr = ''
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
      child.on('close', (code) => {
        clearTimeout(timer)
        resolve({code, stdout, stderr})
      })
    })
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: `tiers: ${path.join(folder, name)}: Unexpected FIFO (named pipe), expected a regular file (the lint engine reads it for its configuration)\n`
    })
    // Nothing was recorded.
    await expect(fs.access(path.join(folder, '.greenlight', 'tiers', 'verification-status.json'))).rejects.toThrow()
  })
})

describe.skipIf(process.platform !== 'linux')('a process a check starts with setsid', () => {
  it.concurrent('is ended with the check, found by the marker in its environment', {timeout: 30_000}, async ({expect}) => {
    const folder = await project()
    const command = `setsid sh -c 'echo $$ > escaped.pid; exec sleep 40' > /dev/null 2>&1 < /dev/null & while [ ! -s escaped.pid ]; do sleep 0.05; done`
    await fs.writeFile(configFile(folder), JSON.stringify({test: {command}}))
    await git(folder, 'init', '-q')
    expect((await runTiers(folder, ['verify', 'S-01'])).code).toBe(0)
    const pid = await readPid(folder, 'escaped.pid')
    escaped.push(pid)
    expect(isRunning(pid)).toBe(false)
  })
})
