import {stat} from 'node:fs/promises'
import path from 'node:path'
import {parseCommandArgs} from '../command-args.js'
import {exitCodes, firstLine, UserError} from '../errors.js'
import {ciProviders, planInit, plannedDiff, writePlanned} from '@verification-tiers/setup'
import type {CiProvider, PlannedFile} from '@verification-tiers/setup'

export const initUsage = `Usage: tiers init [options]

Set this project up for verification tiers, and say what was done:
  .remarkrc.json          remark-preset-lint-verification-tiers added to the
                          remark configuration (merged into .remarkrc,
                          .remarkrc.json or package.json#remarkConfig; a new
                          .remarkrc.json where there is none)
  .claude/settings.json   a Stop hook entry running \`npx tiers stop-hook\`,
                          beside the hooks already there
  --ci github             also .github/workflows/verification-tiers.yml,
                          running \`tiers lint --frail\` and \`tiers verify --all\`
A second run changes nothing. A file that cannot be merged (not JSON, or not
the shape expected) stops the run before anything is written.

Options:
  --ci <provider>  also write a CI workflow (${ciProviders.join(', ')})
  --dry-run        print the changes as a unified diff; write nothing
  -h, --help       show this help

Exit codes: 0 done (or nothing to do); 1 a bad option; 2 a file that cannot
be merged, named with the reason.`

interface InitSettings {
  ci: CiProvider | undefined
  dryRun: boolean
}

function parseInitArgs(argv: readonly string[]): InitSettings | null {
  const parsed = parseCommandArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {ci: {type: 'string'}, 'dry-run': {type: 'boolean', default: false}, help: {type: 'boolean', short: 'h', default: false}}
  })
  const {values} = parsed
  if (values.help) return null
  if (values.ci !== undefined && !(ciProviders as readonly string[]).includes(values.ci)) {
    throw new UserError(`Unexpected \`--ci ${values.ci}\`, expected one of ${ciProviders.join(', ')}`)
  }
  return {ci: values.ci as CiProvider | undefined, dryRun: values['dry-run']}
}

/** The spec-driven tool (not Greenlight) whose folder is in `cwd`, with that folder as CI names it; `null` for none. */
async function toolIn(cwd: string): Promise<{name: string; folder: string} | null> {
  // Loaded here only: init needs no more of the gate.
  const {greenlight, tools} = await import('@verification-tiers/project')
  // A Greenlight folder is the project's, whatever else is beside it.
  if (await stat(path.join(cwd, greenlight.folder)).then(() => true, () => false)) return null
  for (const tool of tools) {
    if (await tool.recognises(path.join(cwd, tool.folder))) return {name: tool.name, folder: tool.folder}
  }
  return null
}

/** Output of `tiers init`. */
export interface InitIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
}

/** Run `tiers init` in `cwd`; resolves to the exit code. */
export async function runInit(argv: readonly string[], io: InitIo, cwd: string = process.cwd()): Promise<number> {
  let settings
  try {
    settings = parseInitArgs(argv)
  } catch (error) {
    io.stderr(`tiers init: ${firstLine(error)}`)
    return exitCodes.user
  }
  if (!settings) {
    io.stdout(initUsage)
    return exitCodes.ok
  }
  try {
    const steps = await planInit(cwd, {ci: settings.ci, tool: await toolIn(cwd)})
    const planned: PlannedFile[] = steps.flatMap((step) => (step.kind === 'write' ? [step.planned] : []))
    if (settings.dryRun) {
      for (const each of planned) io.stdout(plannedDiff(each).replace(/\n$/, ''))
    } else {
      await writePlanned(cwd, planned)
    }
    const verb = (each: PlannedFile) => (settings.dryRun ? (each.before === null ? 'would create' : 'would update') : each.before === null ? 'created' : 'updated')
    for (const step of steps) {
      if (step.kind === 'write') io.stderr(`${verb(step.planned)} ${step.planned.file}: ${step.planned.change}`)
      else if (step.kind === 'unchanged') io.stderr(`unchanged ${step.file}: ${step.reason}`)
      else io.stderr(`note: ${step.text}`)
    }
    if (planned.length === 0) io.stderr('tiers init: nothing to change')
    return exitCodes.ok
  } catch (error) {
    io.stderr(`tiers init: ${firstLine(error)}`)
    return exitCodes.broken
  }
}
