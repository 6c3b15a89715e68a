import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {lintTexts} from '@verification-tiers/lint'

const repository = fileURLToPath(new URL('../../..', import.meta.url))
const contract = '### C-01: CartTotal\n\n**Verification:** Verify\n**Acceptance Criteria:**\n- The total includes tax\n'

let folder: string

beforeAll(async () => {
  // Plugins resolve from the repository’s `node_modules`; no configuration above the folder reaches it.
  folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-lint-texts-')))
  await fs.symlink(path.join(repository, 'node_modules'), path.join(folder, 'node_modules'), 'dir')
  await fs.mkdir(path.join(folder, 'quiet'))
  await fs.writeFile(
    path.join(folder, 'quiet', '.remarkrc.json'),
    JSON.stringify({plugins: ['remark-preset-lint-verification-tiers', ['remark-lint-verification-tier', false]]})
  )
})

afterAll(async () => {
  await fs.rm(folder, {recursive: true, force: true})
})

describe('lintTexts', () => {
  it('lints each text with the configuration of its own folder, or the preset where there is none, keyed by absolute path', async () => {
    const plain = path.join(folder, 'a.md')
    const quiet = path.join(folder, 'quiet', 'b.md')
    const messages = await lintTexts([
      {path: plain, text: contract},
      {path: quiet, text: contract}
    ])
    expect([...messages.keys()]).toEqual([plain, quiet])
    expect(messages.get(plain)?.map((message) => [message.ruleId, message.fatal, message.place, message.reason])).toEqual([
      [
        'verification-tier',
        true,
        {start: {line: 3, column: 19, offset: 39}, end: {line: 3, column: 25, offset: 45}},
        'Unexpected verification tier `Verify` on C-01 CartTotal, expected `verify`'
      ]
    ])
    expect(messages.get(quiet)).toEqual([])
  })

  it('resolves to an empty map for no files', async () => {
    expect(await lintTexts([])).toEqual(new Map())
  })
})
