/**
 * Global setup: no test runs `tiers` with the coding agent's environment, or
 * the git identity, of the person running the tests.
 *
 * * Claude Code sets `CLAUDE_PROJECT_DIR` for its hooks and the commands it
 *   runs, and `tiers stop-hook` looks for a project from that folder too: run
 *   under an agent, every test of the hook would judge the agent's project
 *   beside its own.
 * * Every variable of the cli's registry of agent markers (`CLAUDECODE`,
 *   `CODEX_THREAD_ID`, `AGENT`, …) is cleared: with one set, `tiers` refuses
 *   approvals and escalation choices, and a test of them would fail only when
 *   an agent runs the suite.
 * * Git's user and system configuration are set aside for a file of this run
 *   naming the test user (`Tiers Test <tiers@example.com>`, as the `git`
 *   helper commits): each answer records git's identity, the same wherever
 *   the suite runs.
 *
 * A test that needs one of these sets it for its run. Run `npx tsc -b` first:
 * the registry is read from the built cli.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

/** The git identity every answer of the tests records, unless a test sets its own. */
export const testIdentity = {name: 'Tiers Test', email: 'tiers@example.com'}

export default async function setup(): Promise<() => Promise<void>> {
  delete process.env.CLAUDE_PROJECT_DIR
  const {isAgentMarker} = (await import('../../packages/cli/dist/lib/person.js')) as {isAgentMarker: (name: string, value: string | undefined) => boolean}
  for (const [name, value] of Object.entries(process.env)) if (isAgentMarker(name, value)) delete process.env[name]
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-test-git-'))
  const config = path.join(folder, 'gitconfig')
  await fs.writeFile(config, `[user]\n\tname = ${testIdentity.name}\n\temail = ${testIdentity.email}\n`)
  process.env.GIT_CONFIG_GLOBAL = config
  process.env.GIT_CONFIG_NOSYSTEM = '1'
  return () => fs.rm(folder, {recursive: true, force: true})
}
