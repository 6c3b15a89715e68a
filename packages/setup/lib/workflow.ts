import type {Step} from './files.js'
import {readIfPresent} from './files.js'

export const workflowFile = '.github/workflows/verification-tiers.yml'

/** The CI providers `--ci` knows. */
export const ciProviders = ['github'] as const
export type CiProvider = (typeof ciProviders)[number]

const workflow = `name: Verification tiers
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
      - run: npx tiers lint --frail
      - run: npx tiers verify --all
`

/** The CI step: a GitHub Actions workflow that lints the contracts and runs their checks; an existing file is never replaced. */
export async function planWorkflow(cwd: string): Promise<Step> {
  const text = await readIfPresent(cwd, workflowFile)
  if (text === workflow) return {kind: 'unchanged', file: workflowFile, reason: 'the workflow is already there'}
  if (text !== null) return {kind: 'note', text: `${workflowFile} exists and differs: left as it is (it should run \`npx tiers lint --frail\` and \`npx tiers verify --all\`)`}
  return {kind: 'write', planned: {file: workflowFile, before: null, after: workflow, change: 'runs `tiers lint --frail` and `tiers verify --all` on every push and pull request'}}
}
