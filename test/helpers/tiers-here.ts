/**
 * `tiers` run in this test process (`scripts/tiers-here.mjs`, which `npm run
 * check:corpus` runs the cli with too), with the defaults of the bin's
 * tests. For tests of what a command does with a project, where starting a
 * process for each run would cost most of the suite's time; what a process
 * brings (the bin's own start, signals, exit codes set by Node, concurrent
 * processes, standard input as a stream) is tested through the real bin with
 * `runTiers`. Runs take turns: the working folder and the environment are
 * the process's own. Scenarios whose checks sleep or time out are faster
 * side by side, each in a process of its own.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {runTiersInProcess} from '../../scripts/tiers-here.mjs'
import {exampleProject} from './tiers-bin.js'
import type {Run} from './tiers-bin.js'

/** How the run is attended: by default, a person at a terminal (standard input is one), as the bin there would be told. */
export interface HereOptions {
  /** Standard input is a terminal (default `true`); `false`: a pipe, as under a coding agent or in CI. */
  terminal?: boolean
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
  return runTiersInProcess(cwd, args, {input, env: {TIERS_MAX_BLOCKS: undefined, GITHUB_ACTIONS: undefined, ...env}, terminal})
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
