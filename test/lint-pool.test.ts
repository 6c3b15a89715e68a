/**
 * `tiers lint`'s threads: the same messages whether files are linted in this
 * thread or on workers (causes and stacks included), and a worker that stops
 * halfway is an error, never a silent pass. Runs the built code (`tsc -b`),
 * as workers load `dist/lib/lint/worker.js`.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {VFile} from 'vfile'
import {reporter} from 'vfile-reporter'
import {lintBatch} from '../packages/cli/dist/lib/lint/batch.js'
import {fromMessageData, toMessageData} from '../packages/cli/dist/lib/lint/messages.js'
import {lintInParallel, makeBatches} from '../packages/cli/dist/lib/lint/pool.js'
import {root} from './helpers/tiers-bin.js'

let project: string

// A plugin that reports with an Error as the reason (its stack is printed) and
// one with a nested cause; and, in a worker, stops the thread when asked to.
const plugin = `import {isMainThread} from 'node:worker_threads'
export default {
  plugins: [
    'remark-preset-lint-verification-tiers',
    function () {
      return function (tree, file) {
        const text = String(file.value)
        if (text.includes('STOP') && !isMainThread) process.exit(3)
        if (text.includes('STACK')) file.message(new Error('boom'))
        if (text.includes('CAUSE')) file.message('Outer', {cause: new Error('inner', {cause: new Error('innermost')})})
      }
    }
  ]
}
`

beforeAll(async () => {
  project = await fs.mkdtemp(path.join(os.tmpdir(), 'tiers-lint-pool-'))
  await fs.symlink(path.join(root, 'node_modules'), path.join(project, 'node_modules'), 'dir')
  await fs.writeFile(path.join(project, '.remarkrc.mjs'), plugin)
})

afterAll(async () => {
  await fs.rm(project, {recursive: true, force: true})
})

function sources(count: number, extra: (index: number) => string = () => '') {
  return Array.from({length: count}, (_, index) => ({
    path: `c-${String(index).padStart(2, '0')}.md`,
    value: `### C-${index}: Card\n\n**Verification:** ${index % 3 === 0 ? 'Verify' : 'auto'}\n${extra(index)}\n`
  }))
}

function report(linted: Array<{path: string; messages: ReturnType<typeof toMessageData>[]}>): string {
  const files = [...linted]
    .sort((left, right) => left.path.localeCompare(right.path))
    .map((each) => {
      const file = new VFile({path: each.path})
      file.messages.push(...each.messages.map((data) => fromMessageData(data, each.path)))
      return file
    })
  return reporter(files, {color: false})
}

describe('lintInParallel', () => {
  it('gives the messages of one thread on three, a file per batch', async () => {
    const files = sources(12, (index) => (index === 4 ? 'STACK' : index === 7 ? 'CAUSE' : ''))
    const settings = {cwd: project, detectConfig: true}
    const alone = await lintBatch(settings, files)
    const threaded = await lintInParallel(settings, makeBatches(files, 1), 3)
    expect(threaded).toHaveLength(12)
    const expected = report(alone)
    expect(report(threaded)).toBe(expected)
    // The report has the Error's stack and the nested causes, so they crossed threads.
    expect(expected).toContain('Error: boom')
    expect(expected).toMatch(/\[cause\]:\n {4}Error: inner[\s\S]*\[cause\]:\n {4}Error: innermost/)
    expect(expected).toContain('Unexpected verification tier `Verify`')
  })

  it('carries a message’s stack and causes through plain data', () => {
    const file = new VFile({path: 'a.md'})
    file.message(new Error('boom'))
    file.message('Outer', {cause: new Error('inner')})
    const copy = new VFile({path: 'a.md'})
    copy.messages.push(...file.messages.map((message) => fromMessageData(JSON.parse(JSON.stringify(toMessageData(message))), 'a.md')))
    expect(reporter([copy], {color: false})).toBe(reporter([file], {color: false}))
  })

  it('fails when a worker stops before it answers', async () => {
    const files = sources(6, (index) => (index === 5 ? 'STOP' : ''))
    await expect(lintInParallel({cwd: project, detectConfig: true}, makeBatches(files, 1), 3)).rejects.toThrow(/lint worker stopped \(exit code 3\)/)
  })

  it('answers at once for no files', async () => {
    await expect(lintInParallel({cwd: project, detectConfig: true}, [], 3)).resolves.toEqual([])
  })
})
