/**
 * One list of markdown extensions (the `markdown-extensions` package's) for
 * the lint and the gate: a contract file `tiers lint` reads under
 * `contracts/` is one the gate reads too, so a `contracts/x.mkd` is linted
 * and gated, never linted alone.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import markdownExtensions from 'markdown-extensions'
import {afterAll, describe, expect, it} from 'vitest'
import {linkedProject} from './helpers/tiers-bin.js'
import {runTiersPiped as runTiers} from './helpers/tiers-here.js'

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A project whose `contracts/` holds one verify contract in a file of each extension, all in slice S-01, with an extension no markdown has beside them. */
async function projectOfEveryExtension(): Promise<string> {
  const files: Record<string, string> = {
    '.remarkrc.json': '{"plugins": ["remark-preset-lint-verification-tiers"]}\n',
    '.greenlight/CONTRACTS.md': '# Contracts\n',
    '.greenlight/contracts/notes.txt': '### C-99: Not markdown\n\n**Verification:** verify\n',
    '.greenlight/GRAPH.json': JSON.stringify({slices: {'S-01': {name: 'Every extension', contracts: markdownExtensions.map((_, index) => `C-${index + 1}`)}}})
  }
  for (const [index, extension] of markdownExtensions.entries()) {
    files[`.greenlight/contracts/c.${extension}`] =
      `### C-${index + 1}: In ${extension}\n\n**Verification:** verify\n\n**Acceptance criteria:**\n\n- The .${extension} file is read\n`
  }
  return linkedProject(folders, 'verification-tiers-extensions-', files)
}

describe('the markdown extensions of contract files', () => {
  it('are the eight of markdown-extensions, the `.mkd` of the issue among them', () => {
    expect(markdownExtensions).toEqual(['md', 'markdown', 'mdown', 'mkdn', 'mkd', 'mdwn', 'mkdown', 'ron'])
  })

  it('a contract file of each is linted by `tiers lint` and gated by the Stop hook; a `.txt` by neither', async () => {
    const project = await projectOfEveryExtension()
    const lint = await runTiers(project, ['lint', '--format', 'json', '.greenlight'])
    expect(lint.code).toBe(0)
    const linted = (JSON.parse(lint.stdout) as Array<{path: string}>).map((file) => file.path).sort()
    expect(linted).toEqual(['.greenlight/CONTRACTS.md', ...markdownExtensions.map((extension) => `.greenlight/contracts/c.${extension}`)].sort())

    const hook = await runTiers(project, ['stop-hook'], '{"session_id": "extensions"}')
    expect(hook.code).toBe(0)
    const {decision, reason} = JSON.parse(hook.stdout) as {decision: string; reason: string}
    expect(decision).toBe('block')
    expect(reason).not.toContain('no contract file defines')
    expect(reason.slice(reason.indexOf('Criteria remaining:\n')).split('\n')).toEqual([
      'Criteria remaining:',
      ...markdownExtensions.map((extension, index) => `  - C-${index + 1}.1 (for a person at the checkpoint): The .${extension} file is read`)
    ])

    const contracts = await runTiers(project, ['contracts'])
    expect(contracts.code).toBe(0)
    expect(contracts.stdout).toContain(`C-5 In mkd — .greenlight/contracts/c.mkd:1\n`)
    expect(contracts.stdout).toContain(
      `${markdownExtensions.length} contracts in ${markdownExtensions.length} files: ${markdownExtensions.length} verify, 0 auto\n`
    )
    expect(contracts.stdout).not.toContain('C-99')
  })
})
