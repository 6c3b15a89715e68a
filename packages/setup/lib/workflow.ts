import type {Step} from './files.js'
import {readIfPresent} from './files.js'

export const workflowFile = '.github/workflows/verification-tiers.yml'

/** The CI providers `--ci` knows. */
export const ciProviders = ['github'] as const
export type CiProvider = (typeof ciProviders)[number]

/** The command the workflow lints the contracts with: their folder only, as other markdown (an agent's prompt) may hold example contracts. */
export const workflowLintCommand = (lintPath: string): string => `npx tiers lint --frail ${lintPath}`

/**
 * The workflow, its `tiers lint` on `lintPath`, the contracts' folder, and
 * `tiers ci`, which holds the merge while a verify slice the change touched
 * has no person's approval: judged since the pull request's base, or since
 * the commit a push started from (all the history is fetched for it).
 */
const workflowFor = (lintPath: string) => `name: Verification tiers
on: [push, pull_request]
jobs:
  tiers:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - run: npm ci
      - run: ${workflowLintCommand(lintPath)}
      - run: npx tiers verify --all
      - run: |
          base="\${{ github.event_name == 'pull_request' && format('origin/{0}', github.base_ref) || github.event.before }}"
          if git rev-parse -q --verify "$base^{commit}" > /dev/null; then npx tiers ci --base "$base"; else npx tiers ci; fi
`

/**
 * The CI step: a GitHub Actions workflow that lints the contracts in
 * `lintPath` (`.greenlight`, or a spec-driven tool's folder such as `specs`)
 * and runs their checks; an existing file is never replaced.
 */
export async function planWorkflow(cwd: string, lintPath: string): Promise<Step> {
  const workflow = workflowFor(lintPath)
  const lint = workflowLintCommand(lintPath)
  const text = await readIfPresent(cwd, workflowFile)
  if (text === workflow) return {kind: 'unchanged', file: workflowFile, reason: 'the workflow is already there'}
  if (text !== null) return {kind: 'note', text: `${workflowFile} exists and differs: left as it is (it should run \`${lint}\`, \`npx tiers verify --all\` and \`npx tiers ci\`)`}
  return {kind: 'write', planned: {file: workflowFile, before: null, after: workflow, change: `runs \`${lint}\`, \`npx tiers verify --all\` and \`npx tiers ci\` on every push and pull request`}}
}
