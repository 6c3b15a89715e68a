/**
 * `tiers lint`, as the bin and `main` run it: a run the lint cache answers
 * whole prints what it printed before, having loaded only what it takes to
 * tell (`replayLint`); any other run loads the engine.
 */
import {printLintOutput, replayLint} from './lint-replay.js'
import type {LintIo} from './lint.js'

/** Run `tiers lint` with `argv` (the arguments after `lint`); resolves to the exit code. */
export async function lintCommand(argv: readonly string[], io: LintIo): Promise<number> {
  const replayed = await replayLint(argv, process.cwd())
  if (replayed) return printLintOutput(replayed, io)
  return (await import('./lint.js')).runLint(argv, io)
}
