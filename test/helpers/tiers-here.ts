/**
 * `tiers` run in this test process: the cli's `main` (what the bin runs after
 * it starts) with the bin's streams, in `cwd`, with the environment the bin
 * would get. For tests of what a command does with a project, where starting
 * a process for each run would cost most of the suite's time; what a process
 * brings (the bin's own start, signals, exit codes set by Node, concurrent
 * processes, standard input as a stream) is tested through the real bin with
 * `runTiers`.
 *
 * The working folder and the environment are the process's own, so runs take
 * turns: each waits for the one before it to end. Scenarios whose checks
 * sleep or time out are faster side by side, each in a process of its own.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {Readable} from 'node:stream'
import {format} from 'node:util'
import {exampleProject} from './tiers-bin.js'
import type {Run} from './tiers-bin.js'

interface Cli {
  main: (
    argv: readonly string[],
    io: {
      stdout: (text: string) => void
      stderr: (text: string) => void
      report: (text: string) => void
      write: (text: string) => void
      stdin: (limitBytes: number) => Promise<string>
      readLine: () => Promise<string | null>
      terminal: {stdout: null; stderr: boolean; stdin: boolean}
    }
  ) => Promise<number>
  readInput: (limitBytes: number, stream: NodeJS.ReadableStream) => Promise<string>
  readLine: (limitBytes: number | undefined, stream: NodeJS.ReadableStream) => Promise<string | null>
}

let cli: Promise<Cli> | undefined
// The built cli, as the bin loads it (`npx tsc -b` first).
const loadCli = (): Promise<Cli> =>
  (cli ??= Promise.all([import('../../packages/cli/dist/lib/main.js'), import('../../packages/cli/dist/lib/stdin.js')]).then(([main, stdin]) => ({
    main: main.main as Cli['main'],
    readInput: stdin.readInput as Cli['readInput'],
    readLine: stdin.readLine as Cli['readLine']
  })))

/** How the run is attended: by default, a person at a terminal (standard input is one), as the bin there would be told. */
export interface HereOptions {
  /** Standard input is a terminal (default `true`); `false`: a pipe, as under a coding agent or in CI. */
  terminal?: boolean
}

let queue: Promise<unknown> = Promise.resolve()

/** Run `work` after every run queued before it. */
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const next = queue.then(work, work)
  queue = next.catch(() => {})
  return next
}

/** Set `changes` in `process.env` (`undefined` removes); returns what puts it back. */
function changeEnvironment(changes: Record<string, string | undefined>): () => void {
  const before = new Map(Object.keys(changes).map((name) => [name, process.env[name]]))
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  return () => {
    for (const [name, value] of before) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
}

/**
 * Run `tiers args` in `cwd` in this process, with `input` as its standard
 * input (and its first line as what the person types for `tiers review`).
 * The same arguments and result as `runTiers`: `TIERS_MAX_BLOCKS` and
 * `GITHUB_ACTIONS` are cleared; `env` adds to (or, as `undefined`, removes
 * from) the environment. Standard input is a terminal unless `terminal` is
 * false: a person at a terminal runs it, so an approval is taken (the real
 * bin under a pipe refuses one: see `runTiers`).
 */
export function runTiersHere(
  cwd: string,
  args: readonly string[],
  input = '',
  env: Record<string, string | undefined> = {},
  {terminal = true}: HereOptions = {}
): Promise<Run> {
  return inTurn(async () => {
    const {main, readInput, readLine} = await loadCli()
    let stdout = ''
    let stderr = ''
    const restore = changeEnvironment({TIERS_MAX_BLOCKS: undefined, GITHUB_ACTIONS: undefined, ...env})
    const folder = process.cwd()
    process.chdir(cwd)
    try {
      // As the bin's streams: `console.log` and `console.error` for lines, the raw streams for reports.
      const code = await main(args, {
        stdout: (text) => (stdout += format(text) + '\n'),
        stderr: (text) => (stderr += format(text) + '\n'),
        report: (text) => (stderr += text),
        write: (text) => (stdout += text),
        stdin: (limitBytes) => readInput(limitBytes, Readable.from([Buffer.from(input)])),
        readLine: () => readLine(undefined, Readable.from([Buffer.from(input)])),
        terminal: {stdout: null, stderr: false, stdin: terminal}
      })
      return {code, stdout, stderr}
    } finally {
      process.chdir(folder)
      restore()
    }
  })
}

/**
 * Copies of the example project (`exampleProject(folders, prefix, 'true')`)
 * on which `tiers verify --all` passed: one project is verified, the first
 * time one is asked for, and its state folder is copied into each new copy
 * (the run is recorded by content, outside git, so a copy is as fresh), in
 * place of a verify of each copy's own.
 */
export function verifiedExampleCopies(folders: string[], prefix: string): () => Promise<string> {
  let template: Promise<string> | undefined
  return async () => {
    const verified = await (template ??= exampleProject(folders, prefix, 'true').then(async (folder) => {
      const run = await runTiersHere(folder, ['verify', '--all'])
      if (run.code !== 0) throw new Error(`tiers verify --all exited ${run.code}: ${run.stdout}${run.stderr}`)
      return folder
    }))
    const folder = await exampleProject(folders, prefix, 'true')
    await fs.cp(path.join(verified, '.greenlight', 'tiers'), path.join(folder, '.greenlight', 'tiers'), {recursive: true})
    return folder
  }
}

/**
 * `runTiers`' arguments and defaults, in this process: standard input is a
 * pipe unless `terminal`, as under a coding agent or in CI. For the tests of
 * what a command does, where what the bin's process brings is not the point.
 */
export function runTiersPiped(
  cwd: string,
  args: readonly string[],
  input = '',
  env: Record<string, string | undefined> = {},
  {terminal = false}: HereOptions = {}
): Promise<Run> {
  return runTiersHere(cwd, args, input, env, {terminal})
}
