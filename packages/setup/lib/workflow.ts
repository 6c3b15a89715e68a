import type {Step} from './files.js'
import {readIfPresent} from './files.js'

export const workflowFile = '.github/workflows/verification-tiers.yml'

/** The CI providers `--ci` knows. */
export const ciProviders = ['github'] as const
export type CiProvider = (typeof ciProviders)[number]

/** The workflow, its `tiers lint` on `lintPath` (a spec-driven tool's folder) when given, else on the whole project. */
const workflowFor = (lintPath: string | null) => `name: Verification tiers
on: [push, pull_request]
jobs:
  tiers:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - run: npm ci
      - run: npx tiers lint --frail${lintPath === null ? '' : ` ${lintPath}`}
      - run: npx tiers verify --all
`

/**
 * The CI step: a GitHub Actions workflow that lints the contracts (in
 * `lintPath`, a spec-driven tool's folder such as `specs`, when given) and
 * runs their checks; an existing file is never replaced.
 */
export async function planWorkflow(cwd: string, lintPath: string | null = null): Promise<Step> {
  const workflow = workflowFor(lintPath)
  const text = await readIfPresent(cwd, workflowFile)
  if (text === workflow) return {kind: 'unchanged', file: workflowFile, reason: 'the workflow is already there'}
  if (text !== null) return {kind: 'note', text: `${workflowFile} exists and differs: left as it is (it should run \`npx tiers lint --frail\` and \`npx tiers verify --all\`)`}
  return {kind: 'write', planned: {file: workflowFile, before: null, after: workflow, change: 'runs `tiers lint --frail` and `tiers verify --all` on every push and pull request'}}
}
