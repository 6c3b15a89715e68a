/**
 * Docs are tests: the readme's Use section is run as written. Its markdown
 * block is written at the path the section names, its `example.js` beside
 * it, inside the repository (so `@verification-tiers/spec-tools` resolves as
 * for a user who installed it), and `node example.js` must print exactly
 * the section's `txt` block.
 */
import {execFile} from 'node:child_process'
import {randomBytes} from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import type {Code, Root} from 'mdast'
import {fromMarkdown} from 'mdast-util-from-markdown'
import {toString} from 'mdast-util-to-string'
import {afterAll, expect, it} from 'vitest'

const here = path.dirname(fileURLToPath(import.meta.url))
const scratch = path.join(here, '..', '..', '..', 'test', `.tmp-spec-tools-readme-${randomBytes(6).toString('hex')}`)

afterAll(async () => {
  await fs.rm(scratch, {recursive: true, force: true})
})

/** The Use section's markdown file (its path and text), script and output. */
async function useSection(): Promise<{file: string; markdown: string; script: string; output: string}> {
  const tree: Root = fromMarkdown(await fs.readFile(path.join(here, '..', 'readme.md'), 'utf8'))
  const start = tree.children.findIndex((node) => node.type === 'heading' && toString(node) === 'Use')
  const end = tree.children.findIndex((node, index) => index > start && node.type === 'heading' && node.depth === 2)
  const section = tree.children.slice(start, end)
  const code = (lang: string) => section.find((node): node is Code => node.type === 'code' && node.lang === lang)?.value
  const file = section
    .map((node) => toString(node))
    .join('\n')
    .match(/^Say (\S+) holds:/m)?.[1]
  const [markdown, script, output] = [code('markdown'), code('js'), code('txt')]
  if (file === undefined || markdown === undefined || script === undefined || output === undefined) {
    throw new Error('Expected the Use section to say which file holds what, then a `js` block and the `txt` block it prints')
  }
  return {file, markdown, script, output}
}

it('prints what the readme’s Use section says', async () => {
  const {file, markdown, script, output} = await useSection()
  await fs.mkdir(path.join(scratch, path.dirname(file)), {recursive: true})
  await fs.writeFile(path.join(scratch, file), markdown + '\n')
  await fs.writeFile(path.join(scratch, 'example.js'), script + '\n')
  const {stdout, stderr} = await promisify(execFile)(process.execPath, ['example.js'], {cwd: scratch})
  expect({stdout, stderr}).toEqual({stdout: output + '\n', stderr: ''})
})
