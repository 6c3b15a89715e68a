/**
 * A fast-check property over the real `tiers` bin: random slice and session
 * ids (`../../x`, `__proto__`, `constructor`, Unicode, control characters,
 * very long ones), random `--dir` paths, random or broken `GRAPH.json`,
 * `config.json`, state files, verification status, stop-hook counts,
 * contracts cache and stop-hook input, a symbolic link at the state folder
 * or one of its files (to a copy outside it), across the gate’s commands
 * (checkpoint, respond, route, escalate, status, report, contracts, verify,
 * stop-hook, verdict), one to three commands in a row (or at once) on one
 * project. After every command:
 *
 * 1. it exited 0, 1 or 2, not by a signal, within 30 s;
 * 2. its stderr is lines that each start with `tiers: `: any number of
 *    warnings (`tiers: warning: …`), then at most one error line, which comes
 *    last. Exit 2 always has its error line; exit 1 has one too, except for
 *    the commands whose “no” is their output on stdout (`checkpoint`’s closed
 *    gate, `verify`’s failed check, `verdict`’s failing verdict); exit 0 has
 *    none (a command line without a command too: its error is such a line).
 *    With `--json` or `--yaml`, the error may be on stdout instead
 *    (`{"error": …}`), and then it is not on stderr too;
 * 3. `stop-hook` never exited 2, and on exit 0 printed one JSON object on one
 *    line;
 * 4. no file or folder was created, changed or removed anywhere in the
 *    temporary folder (which holds the project, `HOME`, `TMPDIR` and
 *    `XDG_CACHE_HOME`) but in the state
 *    folder of the project folder the command was given: `<dir>/tiers/`, where
 *    `<dir>` is `--dir`, else `.greenlight` (for `stop-hook`, in the input’s
 *    `cwd`), and in the user’s contracts cache
 *    (`XDG_CACHE_HOME/verification-tiers/contracts/`, shared by every copy);
 * 5. no process was left behind, a second after it ended: nothing in its
 *    process group, and no process anywhere carrying the run’s marker
 *    variable (checks inherit it from `tiers`, and so would a process that
 *    left the group with `setsid`). The verify watchdog (`/bin/sh` with only
 *    `PATH`, in its own group) is not seen this way; it ends as its input
 *    does, with `tiers`.
 *
 * Each scenario starts from a fresh copy of
 * `content/examples/greenlight-project` (`test.command` set to `true`), plus
 * a contract `contracts/C-07.md` in S-01 whose criterion has a check, and the
 * state files of a real run; then up to three of these files are changed at
 * random (most commands stop at the first broken file). `verify`’s lint
 * cache from that run is there whenever a verification status is, as in a
 * project verified before (without it, or with a contract file changed,
 * `verify` lints in its worker). Markdown is not random beyond C-07’s
 * `Slice` field, and the commands that run are a fixed set (`true`, `false`,
 * `sleep 30 &` in the check’s group, one that ignores SIGTERM): checks are
 * shell commands.
 *
 * Seeds are fixed; `FUZZ_SCALE=5` runs five times as many scenarios (with
 * other seeds when `FUZZ_SEED` is set). A failure ends the run at once with
 * the scenario and each command’s output; `FUZZ_SHRINK=1` shrinks it first
 * (slow: each command is a process). Linux only (`/proc`). Run `npx tsc -b`
 * first: the bin is `packages/cli/dist/bin.js`.
 */
import {spawn} from 'node:child_process'
import {createHash} from 'node:crypto'
import {readdirSync, readFileSync} from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import type {Arbitrary} from 'fast-check'
import {afterAll, beforeAll, describe, it} from 'vitest'
import {builtBin, copyExample, ignoreClosedPipe, tiersBin} from './helpers/tiers-bin.js'
import {runTiersHere} from './helpers/tiers-here.js'

const scale = Number(process.env.FUZZ_SCALE ?? 1)
const baseSeed = process.env.FUZZ_SEED === undefined ? 42 : Number(process.env.FUZZ_SEED)
const runs = (count: number) => Math.max(1, Math.round(count * scale))
const shrink = process.env.FUZZ_SHRINK === '1'

// A command that takes longer than this hangs.
const limitMs = 30_000

/** The temporary folder: `project/` (where `tiers` runs), `home/`, `tmp/`, `xdg/`, and `pristine/` (the copy each scenario starts from). */
let temporary = ''
let project = ''
let pristine = ''
let environment: NodeJS.ProcessEnv = {}
/** The contracts cache’s entry of the project’s CONTRACTS.md, as a real run wrote it: the cache file a scenario changes. */
let cacheEntry = ''
/** State files from a real run, by name in `.greenlight/tiers/`. */
const real: Record<string, string> = {}
let sequence = 0

// ---------------------------------------------------------------------------
// Running the bin.

interface Ended {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  /** Killed at `limitMs`. */
  hung: boolean
  /** Its pid, and its process group’s. */
  pid: number
}

/**
 * Run the real bin in `project` in its own process group, with `marker` in
 * its environment; killed with its group at `limitMs`.
 */
function runBin(args: readonly string[], input: string, env: Record<string, string | undefined>, marker: string): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const merged: NodeJS.ProcessEnv = {...environment, ...env, TIERS_PROPERTY_RUN: marker}
    for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key]
    const child = spawn(process.execPath, [tiersBin, ...args], {cwd: project, env: merged, stdio: ['pipe', 'pipe', 'pipe'], detached: true})
    let hung = false
    const timer = setTimeout(() => {
      hung = true
      killGroup(child.pid!)
    }, limitMs)
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.stdin.on('error', ignoreClosedPipe)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({code, signal, stdout, stderr, hung, pid: child.pid!})
    })
    child.stdin.end(input)
  })
}

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL')
  } catch {}
}

/** Whether any process is left in group `pgid`. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch {
    return false
  }
}

/** Processes (not zombies) carrying `TIERS_PROPERTY_RUN=<marker>` in their environment. */
function markedProcesses(marker: string): number[] {
  const wanted = `TIERS_PROPERTY_RUN=${marker}`
  const found: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      if (!readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(wanted)) continue
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      if (/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))) continue
      found.push(Number(name))
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found
}

/** Resolves to what is still running of a run after up to `ms` (processes end a moment after they are killed). */
async function leftBehind(pgid: number, marker: string, ms = 1000): Promise<{group: boolean; marked: number[]}> {
  const end = Date.now() + ms
  for (;;) {
    const state = {group: groupAlive(pgid), marked: markedProcesses(marker)}
    if ((!state.group && state.marked.length === 0) || Date.now() > end) return state
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

// ---------------------------------------------------------------------------
// What is on disk.

/**
 * Every file and folder under `folder`: folders as present, files by inode,
 * size, modification time and content, anything else by its mode.
 */
async function snapshot(folder: string): Promise<Map<string, string>> {
  const entries = new Map<string, string>()
  async function walk(current: string): Promise<void> {
    for (const entry of await fs.readdir(current, {withFileTypes: true})) {
      const full = path.join(current, entry.name)
      const info = await fs.lstat(full)
      if (info.isDirectory()) {
        entries.set(full, 'folder')
        await walk(full)
      } else if (info.isFile()) {
        const hash = createHash('sha1')
          .update(await fs.readFile(full))
          .digest('hex')
        entries.set(full, `file ${info.ino} ${info.size} ${info.mtimeMs} ${hash}`)
      } else {
        entries.set(full, `mode ${info.mode}`)
      }
    }
  }
  await walk(folder)
  return entries
}

const inside = (file: string, folder: string) => file === folder || file.startsWith(folder + path.sep)

/** Paths created, changed or removed outside every folder of `allowed`. */
function changesOutside(before: Map<string, string>, after: Map<string, string>, allowed: readonly string[]): string[] {
  const changed: string[] = []
  for (const file of new Set([...before.keys(), ...after.keys()])) {
    if (allowed.some((folder) => inside(file, folder))) continue
    if (before.get(file) !== after.get(file))
      changed.push(`${path.relative(temporary, file)}: ${before.get(file) ?? 'absent'} -> ${after.get(file) ?? 'absent'}`)
  }
  return changed
}

// ---------------------------------------------------------------------------
// Arbitraries.

/** Text for a command line: no NUL (a process argument cannot hold one). */
const noNul = (value: string) => value.replace(/\0/g, '')

const specialIds = [
  'S-01',
  'S-02',
  'S-03',
  's-01',
  'S-1',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '../../x',
  '../../../pwned',
  '..',
  '.',
  '',
  'verification-status',
  'stop-hook',
  'Stop-Hook',
  '.contracts-cache',
  'S-01.json',
  'S-01.json.lock',
  'a/b',
  'a\\b',
  'S-01/../S-02',
  '-S',
  '--json',
  'ÄÖÜ-1',
  '漢字',
  'S 01',
  '\u202eS-01',
  'S-01\n',
  'S\t1',
  'S\u0007',
  'x'.repeat(100),
  'x'.repeat(101),
  'y'.repeat(5000),
  '%s',
  '${HOME}',
  '`id`',
  '$(id)'
]

/** Slice ids as they may come: real, path-like, Object.prototype’s names, Unicode, control characters, very long. */
const sliceId: Arbitrary<string> = fc.oneof(
  {weight: 10, arbitrary: fc.constantFrom('S-01', 'S-02')},
  {weight: 5, arbitrary: fc.constantFrom(...specialIds)},
  {weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,12}$/)},
  {weight: 1, arbitrary: fc.string({unit: 'grapheme', maxLength: 12})},
  {weight: 1, arbitrary: fc.string({unit: 'binary', maxLength: 8})},
  {weight: 1, arbitrary: fc.string({unit: fc.constantFrom('\n', '\r', '\t', '\u001b', '\u007f', '\u2028', '/', '.', 'a'), maxLength: 6})}
)

const sessionId: Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'session-1',
    '__proto__',
    'constructor',
    'default',
    '',
    '../x',
    'a/b',
    's'.repeat(128),
    's'.repeat(129),
    '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
    'a:b',
    '\n'
  ),
  fc.string({unit: 'grapheme', maxLength: 10}),
  fc.stringMatching(/^[A-Za-z0-9_.:-]{1,20}$/)
)

/** A relative path within the temporary folder (`project` is one level down). */
const relativePath: Arbitrary<string> = fc
  .array(fc.constantFrom('.greenlight', 'tiers', 'contracts', '.', '..', 'missing', 'CONTRACTS.md', 'ü', 'a b', 'x\ny', '-x'), {minLength: 1, maxLength: 4})
  .map((parts) => parts.join('/'))
  .filter((value) => inside(path.resolve('/t/project', value), '/t'))

/** Paths for `--dir` (relative to the project, or absolute within the temporary folder: `@` stands for it). */
const dirPath: Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '.greenlight',
    './.greenlight/',
    '.greenlight/../.greenlight',
    '.greenlight/tiers',
    '.greenlight/contracts',
    '.greenlight/CONTRACTS.md',
    '.greenlight/GRAPH.json',
    'missing',
    '..',
    '.',
    '',
    '@/project/.greenlight',
    '@/missing',
    '@',
    'ünïcode',
    'a\nb'
  ),
  relativePath
)

const jsonValue: Arbitrary<unknown> = fc.jsonValue({maxDepth: 3})

/** JSON text of an object with these entries, keeping keys such as `__proto__` as keys. */
function objectText(entries: ReadonlyArray<readonly [string, unknown]>): string {
  return `{${entries.map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value) ?? 'null'}`).join(', ')}}`
}

/** Text that is not JSON, or not quite: cut, noise, a BOM, deep nesting. */
function broken(text: string): Arbitrary<string> {
  return fc.oneof(
    fc.nat({max: Math.max(0, text.length - 1)}).map((at) => text.slice(0, at)),
    fc.constant('\uFEFF' + text),
    fc.string({unit: 'binary', maxLength: 40}).map((noise) => text + noise),
    fc.string({unit: 'grapheme', maxLength: 20}),
    fc.integer({min: 1, max: 20_000}).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
    fc.integer({min: 1, max: 5_000}).map((depth) => '{"a":'.repeat(depth)),
    fc.constantFrom('', ' ', 'null', '0', '-0', '1e999', '"x"', '[]', '{}', '{"__proto__": {"polluted": true}}', '{"constructor": {"prototype": {}}}')
  )
}

/** Paths of `value` (an array of keys), for changing one part of it. */
function pathsOf(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const paths: Array<Array<string | number>> = [prefix]
  if (Array.isArray(value)) for (const [index, item] of value.entries()) paths.push(...pathsOf(item, [...prefix, index]))
  else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]))
  return paths
}

const remove = Symbol('remove')

/** `value` with the part at `at` replaced (or removed); the value itself is not changed. */
function replaceAt(value: unknown, at: Array<string | number>, replacement: unknown): unknown {
  if (at.length === 0) return replacement === remove ? null : replacement
  const [key, ...rest] = at
  if (Array.isArray(value)) {
    const copy = [...value]
    if (rest.length === 0 && replacement === remove) copy.splice(Number(key), 1)
    else copy[Number(key)] = replaceAt(copy[Number(key)], rest, replacement)
    return copy
  }
  const copy: Record<string, unknown> = Object.assign(Object.create(null), value as object)
  if (rest.length === 0 && replacement === remove) delete copy[key as string]
  else copy[key as string] = replaceAt(copy[key as string], rest, replacement)
  return copy
}

/** `value` with the key at `at` (a path ending in an object’s key) renamed to `name`, in place of the entry; other values are left. */
function renameAt(value: unknown, at: Array<string | number>, name: string): unknown {
  if (at.length === 0 || typeof value !== 'object' || value === null) return value
  const [key, ...rest] = at
  if (Array.isArray(value)) return value.map((item, index) => (index === key ? renameAt(item, rest, name) : item))
  const entries = Object.entries(value).map(([own, item]): [string, unknown] =>
    own !== key ? [own, item] : rest.length === 0 ? [name, item] : [own, renameAt(item, rest, name)]
  )
  return Object.assign(Object.create(null) as object, Object.fromEntries(entries))
}

/**
 * A real JSON file changed in one to three places: a value replaced by a
 * random one (or a slice id), a value removed, or a key renamed to a slice id
 * (`__proto__`, `../../x`, …).
 */
function mutated(text: string): Arbitrary<string> {
  const value = JSON.parse(text) as unknown
  const replacement = fc.oneof(jsonValue, fc.constant(remove), sliceId, fc.constantFrom(0, -1, 1.5, 1e300, '', 'auto', 'verify', 'approved', true))
  const change = fc.tuple(fc.nat(), fc.oneof({weight: 3, arbitrary: replacement.map((to) => ({to}))}, {weight: 1, arbitrary: sliceId.map((name) => ({name}))}))
  return fc.array(change, {minLength: 1, maxLength: 3}).map((changes) => {
    let current = value
    for (const [index, change] of changes) {
      const paths = pathsOf(current)
      const at = paths[index % paths.length]!
      current = 'name' in change ? renameAt(current, at, change.name) : replaceAt(current, at, change.to)
    }
    // An own key `__proto__` (of `Object.create(null)` objects) stays a key.
    return JSON.stringify(current, null, 2)
  })
}

/** How often a JSON file is each of its kinds. */
interface Mix {
  good: number
  mutated: number
  none: number
  random: number
  broken: number
  structured?: number
}

// Most files as `tiers` wrote them, so that the commands get far; each of the others now and then.
const stateMix: Mix = {good: 8, mutated: 2, none: 6, random: 1, broken: 1}

/** A JSON file: as `good` is, changed, absent (`null`), random, broken, or `structured`. */
function jsonFile(good: string, mix: Mix, structured?: Arbitrary<string>): Arbitrary<string | null> {
  return fc.oneof(
    {weight: mix.good, arbitrary: fc.constant(good)},
    {weight: mix.mutated, arbitrary: mutated(good)},
    {weight: mix.none, arbitrary: fc.constant(null)},
    {weight: mix.random, arbitrary: jsonValue.map((value) => JSON.stringify(value))},
    {weight: mix.broken, arbitrary: broken(good)},
    {weight: structured ? (mix.structured ?? 0) : 0, arbitrary: structured ?? fc.constant(null)}
  )
}

const safeCommands = ['true', 'false', 'sleep 30 & true', 'exit 3', 'echo output; echo more >&2; false']

/** `config.json`: whatever the JSON, `test.command` is one of `safeCommands` when it is a string: it runs. */
function configFile(good: string): Arbitrary<string | null> {
  const structured = fc
    .record(
      {
        workflow: fc.oneof(
          jsonValue,
          fc.record({rejection_threshold: fc.oneof(fc.integer({min: -2, max: 5}), jsonValue), visual_checkpoint: fc.boolean()}, {requiredKeys: []})
        ),
        test: fc.oneof(jsonValue, fc.record({command: fc.oneof(fc.constantFrom(...safeCommands), jsonValue), timeout: jsonValue}, {requiredKeys: []})),
        mode: jsonValue
      },
      {requiredKeys: []}
    )
    .map((value) => JSON.stringify(value))
  return jsonFile(good, {good: 12, mutated: 2, none: 1, random: 1, broken: 1, structured: 2}, structured).map((text) =>
    text === null ? null : safeConfig(text)
  )
}

/** A config whose `test.command` string (wherever the JSON parser finds one) is replaced by a safe one. */
function safeConfig(text: string): string {
  let value: unknown
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch {
    // Not JSON: never run. But a parser more lenient than JSON.parse could still read a command: none may be in it.
    return text.includes('command') ? text.replaceAll('command', 'c0mmand') : text
  }
  const test = (value as {test?: {command?: unknown}} | null)?.test
  if (typeof test === 'object' && test !== null && typeof test.command === 'string' && !safeCommands.includes(test.command)) {
    return JSON.stringify({...(value as object), test: {...test, command: 'true'}})
  }
  return text
}

/** GRAPH.json: the example’s, changed, random, broken, or slices with odd ids and fields. */
function graphFile(good: string): Arbitrary<string | null> {
  const slice = fc.record(
    {
      name: fc.oneof(fc.string({maxLength: 12}), jsonValue),
      contracts: fc.oneof(
        fc.array(fc.oneof(fc.constantFrom('C-01', 'C-02', 'C-03', 'C-04', 'C-05', 'C-06', 'C-07', 'C-99'), sliceId), {maxLength: 4}),
        jsonValue
      ),
      verification: fc.oneof(fc.constantFrom('auto', 'verify', 'Auto!'), jsonValue),
      depends_on: fc.oneof(fc.array(sliceId, {maxLength: 2}), jsonValue)
    },
    {requiredKeys: ['contracts']}
  )
  const structured = fc.array(fc.tuple(sliceId, slice), {minLength: 1, maxLength: 3}).map((entries) => `{"project": "x", "slices": ${objectText(entries)}}`)
  return jsonFile(good, {good: 8, mutated: 2, none: 2, random: 1, broken: 1, structured: 2}, structured)
}

/** `contracts/C-07.md`, a verify contract with a check, which GRAPH.json lists in S-01. */
const backgroundContract = (slice: string, command: string) =>
  `### C-07: Background\n\n**Slice:** ${slice}\n**Verification:** verify\n**Acceptance Criteria:**\n- It runs a check -- verified by: \`${command}\`\n`

/**
 * `contracts/C-07.md`: removed now and then, or under a random `Slice`, with
 * a check that passes, fails, or leaves processes in its group.
 */
const extraContract: Arbitrary<string | null> = fc.oneof(
  {weight: 1, arbitrary: fc.constant(null)},
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.oneof({weight: 4, arbitrary: fc.constant('S-01')}, {weight: 1, arbitrary: sliceId.map((id) => id.replace(/[\r\n`]/g, ' '))}),
        fc.constantFrom('true', 'sleep 30 & echo started', '(sleep 30 &); true', "trap '' TERM; sleep 30 & true", 'false', 'echo out; echo err >&2; exit 3')
      )
      .map(([slice, command]) => backgroundContract(slice, command))
  }
)

/** The stop hook’s input: the hook’s JSON with odd fields, any JSON, broken JSON, nothing. */
const hookInput: Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record(
        {
          session_id: fc.oneof(
            {weight: 3, arbitrary: fc.constantFrom('session-1', 'session-2')},
            {weight: 2, arbitrary: sessionId},
            {weight: 1, arbitrary: jsonValue}
          ),
          cwd: fc.oneof(
            {weight: 4, arbitrary: fc.constant('@/project')},
            {weight: 2, arbitrary: fc.constantFrom('@', '@/missing', '.', '', '..', '@/project\u0000', 'a\nb', '@/project/.greenlight')},
            {weight: 1, arbitrary: relativePath},
            {weight: 1, arbitrary: jsonValue}
          ),
          hook_event_name: fc.oneof(fc.constant('Stop'), jsonValue),
          stop_hook_active: fc.oneof(fc.boolean(), jsonValue),
          transcript_path: fc.oneof(fc.constant('@/transcript.jsonl'), jsonValue)
        },
        {requiredKeys: []}
      )
      .map((value) => JSON.stringify(value))
  },
  {weight: 1, arbitrary: jsonValue.map((value) => JSON.stringify(value))},
  {weight: 1, arbitrary: broken('{"session_id": "s", "cwd": "@/project"}')},
  {weight: 1, arbitrary: fc.constant('')}
)

const freeText: Arbitrary<string> = fc.oneof(
  fc.constantFrom('yes', 'approved', 'no', 'Y', '1', 'PASS', 'FAIL_HARD: broken', 'PASS_WITH_WARNINGS', '-', 'the grid shows 2 columns', "it's wrong"),
  fc.string({unit: 'grapheme', maxLength: 30}),
  fc.string({unit: 'binary', maxLength: 12})
)

const choice: Arbitrary<string> = fc.oneof(fc.constantFrom('1', '2', '3'), fc.constantFrom('0', '4', '01', ' 1', '1.0', '', 'one', '-1'))

/** One command line of the gate, with its input. */
interface Step {
  args: string[]
  input: string
  env: Record<string, string | undefined>
}

/** Global options, sometimes: `--json`, `--yaml`, `--dir <path>`. */
const globals: Arbitrary<string[]> = fc
  .tuple(
    fc.constantFrom([], [], [], ['--json'], ['--yaml'], ['--json', '--yaml']),
    fc.oneof(
      {weight: 6, arbitrary: fc.constant(undefined)},
      {weight: 1, arbitrary: fc.constantFrom('.greenlight', './.greenlight/', '@/project/.greenlight')},
      {weight: 2, arbitrary: dirPath}
    )
  )
  .map(([format, dir]) => [...format, ...(dir === undefined ? [] : dir.startsWith('-') ? [`--dir=${dir}`] : ['--dir', dir])])

const commandArgs: Arbitrary<string[]> = fc.oneof(
  {weight: 2, arbitrary: sliceId.map((id) => ['checkpoint', id])},
  {weight: 2, arbitrary: fc.tuple(sliceId, fc.array(freeText, {minLength: 1, maxLength: 3})).map(([id, words]) => ['respond', id, ...words])},
  {
    weight: 1,
    arbitrary: fc
      .tuple(sliceId, choice, fc.option(freeText, {nil: undefined}))
      .map(([id, pick, detail]) => ['route', id, pick, ...(detail === undefined ? [] : [`--detail=${detail}`])])
  },
  {weight: 1, arbitrary: fc.tuple(sliceId, choice).map(([id, pick]) => ['escalate', id, pick])},
  {weight: 1, arbitrary: fc.option(sliceId, {nil: undefined}).map((id) => (id === undefined ? ['status'] : ['status', id]))},
  {weight: 1, arbitrary: sliceId.map((id) => ['report', id])},
  {weight: 1, arbitrary: fc.option(sliceId, {nil: undefined}).map((id) => (id === undefined ? ['contracts'] : [`--slice=${id}`, 'contracts']))},
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.oneof(
          sliceId.map((id) => [id]),
          fc.constant(['--all'])
        ),
        fc.option(fc.constantFrom('1', '3', '3', '3', '0', '1e10', 'x'), {nil: undefined, freq: 2})
      )
      .map(([target, timeout]) => ['verify', ...target, ...(timeout === undefined ? [] : [`--timeout=${timeout}`])])
  },
  {weight: 1, arbitrary: fc.array(freeText, {maxLength: 2}).map((words) => ['verdict', ...words])},
  {
    weight: 1,
    arbitrary: fc.array(
      fc.oneof(fc.constantFrom('checkpoint', 'stop-hook', 'help', '--help', '-h', '--frobnicate', '--dir', '--all', '--', 'constructor', '__proto__'), sliceId),
      {
        maxLength: 4
      }
    )
  }
)

const maxBlocks: Arbitrary<string | undefined> = fc.oneof(
  {weight: 4, arbitrary: fc.constant(undefined)},
  {weight: 2, arbitrary: fc.constantFrom('1', '2', '')},
  {weight: 1, arbitrary: fc.constantFrom('0', '-1', 'abc', '1e3', '99999999999999999999')}
)

/** The gate’s flow on a real slice: verify, checkpoint, reply, route, escalate, as a user runs it. */
const flowArgs: Arbitrary<string[]> = fc.tuple(fc.constantFrom('S-01', 'S-02'), fc.nat()).map(([slice, pick]) => {
  const flows = [
    ['verify', slice],
    ['verify', '--all'],
    ['checkpoint', slice],
    ['respond', slice, 'yes'],
    ['respond', slice, 'the grid shows 2 columns'],
    ['route', slice, '1'],
    ['route', slice, '3', '--detail', 'more'],
    ['escalate', slice, '3'],
    ['status'],
    ['report', slice]
  ]
  return flows[pick % flows.length]!
})

const step: Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.tuple(globals, hookInput, maxBlocks).map(([options, input, max]) => ({args: ['stop-hook', ...options], input, env: {TIERS_MAX_BLOCKS: max}}))
  },
  {weight: 3, arbitrary: flowArgs.map((args) => ({args, input: '', env: {}}))},
  {
    weight: 5,
    arbitrary: fc.tuple(commandArgs, globals, freeText).map(([args, options, input]) => ({args: [...args, ...options].map(noNul), input, env: {}}))
  }
)

/** The project’s files for one scenario: `null` is no file. */
interface Files {
  graph: string | null
  config: string | null
  extraContract: string | null
  status: string | null
  counts: string | null
  cache: string | null
  stateS01: string | null
  stateS02: string | null
  /** A state file of another slice id (written only if the id can name a file). */
  odd: {id: string; text: string | null}
  /** The state folder or one of its files as a symbolic link to a copy in `outside/`, or `null`. */
  link: string | null
}

interface Scenario {
  files: Files
  steps: Step[]
  /** Run the steps at once instead of one after another. */
  together: boolean
}

/**
 * A scenario: one to three files changed at random (a project has few broken
 * files at once, and a command stops at the first), the others as a real run
 * left them or absent; then one to three steps.
 */
function scenario(): Arbitrary<Scenario> {
  const stateFile = (name: string) => fc.constantFrom(real[name]!, real[name]!, null)
  const plain = fc.record({
    graph: fc.constant(real.graph!),
    config: fc.constant(real.config!),
    extraContract: fc.constant(backgroundContract('S-01', 'true')),
    status: stateFile('verification-status.json'),
    counts: stateFile('stop-hook.json'),
    cache: stateFile('.contracts-cache.json'),
    stateS01: stateFile('S-01.json'),
    stateS02: stateFile('S-02.json'),
    odd: fc.constant({id: 'S-01', text: null}),
    // One scenario in four has a link, whatever else changed.
    link: fc.oneof(
      {weight: 3, arbitrary: fc.constant(null)},
      {weight: 1, arbitrary: fc.constantFrom('.', 'S-01.json', 'S-02.json', 'verification-status.json', 'stop-hook.json', '.contracts-cache.json')}
    )
  })
  const noisy = fc.record({
    graph: graphFile(real.graph!),
    config: configFile(real.config!),
    extraContract,
    status: jsonFile(real['verification-status.json']!, stateMix),
    counts: jsonFile(real['stop-hook.json']!, stateMix),
    cache: jsonFile(real['.contracts-cache.json']!, stateMix),
    stateS01: jsonFile(real['S-01.json']!, stateMix),
    stateS02: jsonFile(real['S-02.json']!, stateMix),
    odd: fc.record({id: sliceId, text: jsonFile(real['S-01.json']!, stateMix)})
  })
  const names = ['graph', 'config', 'extraContract', 'status', 'counts', 'cache', 'stateS01', 'stateS02', 'odd'] as const
  const files: Arbitrary<Files> = fc
    .tuple(plain, noisy, fc.uniqueArray(fc.constantFrom(...names), {minLength: 0, maxLength: 3}))
    .map(([base, changes, changed]) => ({...base, ...Object.fromEntries(changed.map((name) => [name, changes[name]]))}) as Files)
  return fc.record({files, steps: fc.array(step, {minLength: 1, maxLength: 3}), together: fc.boolean()})
}

// ---------------------------------------------------------------------------
// Setting a scenario up, and what a command may write.

/** `@` in a path or input stands for the temporary folder. */
const expand = (text: string) => text.replaceAll('@', temporary)

async function writeOrRemove(file: string, text: string | null): Promise<void> {
  if (text === null) await fs.rm(file, {force: true})
  else await fs.writeFile(file, text)
}

/** A fresh copy of the project with the scenario’s files. */
async function setUp({files}: Scenario): Promise<void> {
  await fs.rm(project, {recursive: true, force: true})
  await fs.cp(pristine, project, {recursive: true})
  const dir = path.join(project, '.greenlight')
  const tiers = path.join(dir, 'tiers')
  await fs.mkdir(tiers)
  await writeOrRemove(path.join(dir, 'GRAPH.json'), files.graph)
  await writeOrRemove(path.join(dir, 'config.json'), files.config)
  await writeOrRemove(path.join(dir, 'contracts', 'C-07.md'), files.extraContract)
  await writeOrRemove(path.join(tiers, 'verification-status.json'), files.status)
  await writeOrRemove(path.join(tiers, 'stop-hook.json'), files.counts)
  // The contracts cache is the user's, outside the project: damaged, it must never lower a tier either.
  await writeOrRemove(cacheEntry, files.cache)
  await writeOrRemove(path.join(tiers, 'S-01.json'), files.stateS01)
  await writeOrRemove(path.join(tiers, 'S-02.json'), files.stateS02)
  // Verified before, a project keeps the lint cache too (no new random choice: the scenarios of a seed stay as they were).
  await writeOrRemove(path.join(tiers, '.verify-lint-cache'), files.status === null ? null : real['.verify-lint-cache']!)
  // A file name of the id, if it is one (`tiers` must refuse the id, or read the file; never write elsewhere).
  const name = `${files.odd.id}.json`
  if (files.odd.text !== null && !/[/\0]/.test(files.odd.id) && Buffer.byteLength(name) <= 255 && !['.json', '..json'].includes(name)) {
    await fs.writeFile(path.join(tiers, name), files.odd.text).catch(() => {})
  }
  // The state folder (`.`) or a file of it moved to `outside/` and linked to: `tiers` must not write through the link.
  const outside = path.join(temporary, 'outside')
  await fs.rm(outside, {recursive: true, force: true})
  await fs.mkdir(outside)
  if (files.link !== null) {
    const linked = path.join(tiers, files.link)
    const target = path.join(outside, files.link === '.' ? 'tiers' : files.link)
    if (files.link !== '.' && !(await fs.stat(linked).catch(() => null))) await fs.writeFile(linked, '{}\n')
    await fs.rename(linked, target)
    await fs.symlink(target, linked)
  }
}

/** The value of the last `--dir` in `args` (as the option parser takes it), or `null`. */
function dirOption(args: readonly string[]): string | null {
  let dir: string | null = null
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!
    if (arg === '--') break
    if (arg === '--dir' && index + 1 < args.length) dir = args[++index]!
    else if (arg.startsWith('--dir=')) dir = arg.slice('--dir='.length)
  }
  return dir
}

/**
 * The state folder a command may write in: `<project folder>/tiers`. The
 * stop hook without `--dir` finds its project as git finds `.git`: the
 * `.greenlight` of the nearest folder, from the hook's `cwd` upward, that
 * held one before the run (`before`, the snapshot), else the one `cwd`
 * would hold.
 */
function allowedFolder({args, input}: Step, before: ReadonlyMap<string, string>): string {
  const dir = dirOption(args)
  if (commandOf(args) === 'stop-hook') {
    let cwd: unknown
    try {
      cwd = (JSON.parse(input) as {cwd?: unknown} | null)?.cwd
    } catch {}
    const from = path.resolve(project, typeof cwd === 'string' && cwd !== '' ? cwd : project)
    if (dir !== null) return path.resolve(project, dir, 'tiers')
    for (let folder = from; inside(folder, temporary); folder = path.dirname(folder)) {
      if (before.has(path.join(folder, '.greenlight'))) return path.join(folder, '.greenlight', 'tiers')
    }
    return path.join(from, '.greenlight', 'tiers')
  }
  return path.resolve(project, dir ?? '.greenlight', 'tiers')
}

/** The command a run is, for the rules on its exit code: the first argument that is no option or option value. */
function commandOf(args: readonly string[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!
    if (['--dir', '--detail', '--timeout', '--slice', '--env-allow'].includes(arg)) index++
    else if (!arg.startsWith('-')) return arg
  }
  return undefined
}

// Commands whose “no” is their output, on stdout: exit 1 without an error line.
const quietNo = new Set(['checkpoint', 'verify', 'verdict'])

/** What is wrong with a run, or `null`. */
function runProblem(args: readonly string[], run: Ended): string | null {
  if (run.hung) return `still running after ${limitMs / 1000} s`
  if (run.signal !== null || run.code === null || ![0, 1, 2].includes(run.code)) return `ended with code ${run.code}, signal ${run.signal}`
  const command = commandOf(args)
  const {code, stderr} = run
  if (command === 'stop-hook' && !args.includes('--help') && !args.includes('-h')) {
    if (code === 2) return 'the stop hook exited 2'
    if (code === 0) {
      let answer: unknown
      try {
        answer = JSON.parse(run.stdout)
      } catch {}
      if (!run.stdout.endsWith('\n') || run.stdout.slice(0, -1).includes('\n') || typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
        return 'the stop hook did not answer with one JSON object on one line'
      }
    }
  }
  if (stderr !== '' && !stderr.endsWith('\n')) return 'stderr does not end with a line ending'
  const lines = stderr === '' ? [] : stderr.slice(0, -1).split('\n')
  const stray = lines.find((line) => !line.startsWith('tiers: ') || line.includes('\r'))
  if (stray !== undefined) return `a line on stderr that is not one of tiers’ lines: ${JSON.stringify(stray)}`
  const errors = lines.filter((line) => !line.startsWith('tiers: warning: '))
  if (errors.length > 1) return `${errors.length} error lines on stderr`
  if (errors.length === 1 && lines.at(-1) !== errors[0]) return 'a warning after the error line'
  // Asked for JSON or YAML, an error is said there, on stdout, and not again on stderr.
  const structured = structuredError(args, run.stdout)
  if (structured && errors.length > 0) return 'an error said on stdout and again on stderr'
  const said = errors.length + (structured ? 1 : 0)
  if (code === 0 && said > 0) return 'an error line on exit 0'
  if (code === 2 && said === 0) return 'exit 2 without an error line'
  if (code === 1 && said === 0 && !quietNo.has(command ?? '')) return 'exit 1 without an error line'
  return null
}

/** Whether `stdout` is the error of a command run with `--json` or `--yaml`: `{"error": {"code", "message"}}`, or its YAML. */
function structuredError(args: readonly string[], stdout: string): boolean {
  if (args.includes('--json')) {
    try {
      const value = JSON.parse(stdout) as {error?: {code?: unknown; message?: unknown}}
      return typeof value.error?.code === 'number' && typeof value.error.message === 'string'
    } catch {
      return false
    }
  }
  return args.includes('--yaml') && /^error:\n {2}code: \d\n {2}message: /.test(stdout)
}

/** A step with `@` expanded, run, and what is wrong with it. */
interface Checked {
  step: Step
  run: Ended
  problems: string[]
}

/** Run `steps` (one after another, or at once) and check each; throws what is wrong, with the steps and their output. */
async function runSteps(steps: readonly Step[], together: boolean): Promise<void> {
  const expanded = steps.map((one) => ({...one, args: one.args.map(expand), input: expand(one.input)}))
  const checked: Checked[] = []
  const batches = together ? [expanded] : expanded.map((one) => [one])
  for (const batch of batches) {
    const before = await snapshot(temporary)
    const results = await Promise.all(
      batch.map(async (one): Promise<Checked & {pid: number; marker: string}> => {
        const marker = `${process.pid}-${++sequence}`
        const run = await runBin(one.args, one.input, one.env, marker)
        const problem = runProblem(one.args, run)
        return {step: one, run, problems: problem ? [problem] : [], pid: run.pid, marker}
      })
    )
    for (const result of results) {
      const left = await leftBehind(result.pid, result.marker)
      if (left.group) result.problems.push('a process left in its process group')
      if (left.marked.length > 0) {
        const commands = left.marked.map((pid) => readFileSafe(`/proc/${pid}/cmdline`).replace(/\0/g, ' ').trim())
        result.problems.push(`processes left behind: ${JSON.stringify(commands)}`)
        for (const pid of left.marked) {
          try {
            process.kill(pid, 'SIGKILL')
          } catch {}
        }
      }
      killGroup(result.pid)
    }
    // Besides the state folder, the user's contracts cache (`xdg/`) is where tiers writes.
    const outside = changesOutside(before, await snapshot(temporary), [
      ...batch.map((one) => allowedFolder(one, before)),
      path.join(temporary, 'xdg', 'verification-tiers', 'contracts')
    ])
    if (outside.length > 0) results[0]!.problems.push(`written outside the state folder${batch.length > 1 ? 's' : ''}: ${outside.join('; ')}`)
    checked.push(...results)
  }
  if (checked.some((one) => one.problems.length > 0)) {
    const report = checked.map(({step: one, run, problems}) =>
      [
        `tiers ${JSON.stringify(one.args)}${one.input ? ` <<< ${JSON.stringify(one.input.slice(0, 300))}` : ''}${one.env.TIERS_MAX_BLOCKS === undefined ? '' : ` TIERS_MAX_BLOCKS=${JSON.stringify(one.env.TIERS_MAX_BLOCKS)}`}`,
        `  exit ${run.code}${run.signal ? ` (${run.signal})` : ''}; stderr ${JSON.stringify(run.stderr.slice(0, 600))}; stdout ${JSON.stringify(run.stdout.slice(0, 300))}`,
        ...problems.map((problem) => `  PROBLEM: ${problem}`)
      ].join('\n')
    )
    throw new Error(`${together ? 'At once' : 'One after another'}:\n${report.join('\n')}`)
  }
}

function readFileSafe(file: string): string {
  try {
    return readFileSync(file, 'latin1')
  } catch {
    return ''
  }
}

// ---------------------------------------------------------------------------

beforeAll(async () => {
  await fs.access(builtBin)
  if (process.platform !== 'linux') return
  temporary = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-property-')))
  project = path.join(temporary, 'project')
  pristine = path.join(os.tmpdir(), `${path.basename(temporary)}-pristine`)
  for (const folder of ['home', 'tmp', 'xdg']) await fs.mkdir(path.join(temporary, folder))
  environment = {...process.env, HOME: path.join(temporary, 'home'), TMPDIR: path.join(temporary, 'tmp'), XDG_CACHE_HOME: path.join(temporary, 'xdg')}
  for (const name of ['TIERS_MAX_BLOCKS', 'TIERS_NO_CACHE', 'GITHUB_ACTIONS', 'TIERS_TEST_PAUSE', 'TIERS_TEST_PAUSE_LOG']) delete environment[name]
  await copyExample(path.join(pristine, '.greenlight'))
  const config = path.join(pristine, '.greenlight', 'config.json')
  await fs.writeFile(config, (await fs.readFile(config, 'utf8')).replace('"npm test"', '"true"'))
  const graph = path.join(pristine, '.greenlight', 'GRAPH.json')
  await fs.writeFile(graph, (await fs.readFile(graph, 'utf8')).replace('"C-03"]', '"C-03", "C-07"]'))
  await fs.writeFile(path.join(pristine, '.greenlight', 'contracts', 'C-07.md'), backgroundContract('S-01', 'true'))
  // Real state files, from a real run: a verify, a rejection routed, an approval, a stop hook. The
  // commands of the cli in this process, with the bin's environment: only the scenarios' need processes.
  await fs.cp(pristine, project, {recursive: true})
  const env = Object.fromEntries(
    ['HOME', 'TMPDIR', 'XDG_CACHE_HOME', 'TIERS_NO_CACHE', 'TIERS_TEST_PAUSE', 'TIERS_TEST_PAUSE_LOG'].map((name) => [name, environment[name]])
  )
  for (const args of [
    ['verify', '--all'],
    ['respond', 'S-01', 'too small'],
    ['route', 'S-01', '3', '--detail', 'bigger'],
    ['respond', 'S-02', 'yes'],
    ['stop-hook']
  ]) {
    const run = await runTiersHere(project, args, JSON.stringify({session_id: 'session-1', cwd: project}), env)
    if (run.code !== 0) throw new Error(`tiers ${args.join(' ')} exited ${run.code}: ${run.stderr}`)
  }
  const tiers = path.join(project, '.greenlight', 'tiers')
  for (const name of ['verification-status.json', 'stop-hook.json', 'S-01.json', 'S-02.json', '.verify-lint-cache'])
    real[name] = await fs.readFile(path.join(tiers, name), 'utf8')
  const cacheFolder = path.join(temporary, 'xdg', 'verification-tiers', 'contracts')
  const model = path.join(cacheFolder, (await fs.readdir(cacheFolder))[0]!)
  for (const name of await fs.readdir(model)) {
    const text = await fs.readFile(path.join(model, name), 'utf8')
    if ((JSON.parse(text) as {contracts?: Array<{id: string | null}>}).contracts?.[0]?.id !== 'C-01') continue
    cacheEntry = path.join(model, name)
    real['.contracts-cache.json'] = text
  }
  if (cacheEntry === '') throw new Error(`no contracts cache entry of CONTRACTS.md in ${model}`)
  real.graph = await fs.readFile(graph, 'utf8')
  real.config = await fs.readFile(config, 'utf8')
}, 120_000)

afterAll(async () => {
  if (temporary) await fs.rm(temporary, {recursive: true, force: true})
  if (pristine) await fs.rm(pristine, {recursive: true, force: true})
})

describe.runIf(process.platform === 'linux')('tiers under random ids, paths and JSON', () => {
  it('exits 0, 1 or 2 with at most one error line, writes only in its state folder, never exits 2 as a stop hook, and leaves no process', {
    timeout: 600_000 * scale
  }, async () => {
    await fc.assert(
      fc.asyncProperty(scenario(), async (given) => {
        await setUp(given)
        await runSteps(given.steps, given.together)
      }),
      {seed: baseSeed, numRuns: runs(25), endOnFailure: !shrink}
    )
  })
})
