/**
 * BMAD's frozen block is found by its tags on lines of their own, wherever
 * the block before them ends: a tag in code is an example, and a tag on the
 * line after a list whose last item left a fence open is no longer in it.
 */
import {describe, expect, it} from 'vitest'
import {readFrozenIntent} from '../lib/frozen-intent.js'
import {parseMarkdownText} from '../lib/markdown.js'

const read = (text: string) => {
  const {intent, problems} = readFrozenIntent('spec.md', text, parseMarkdownText(text))
  return {items: intent?.items.map((item) => item.text) ?? null, problems}
}

describe('readFrozenIntent', () => {
  it('reads the block after a list item whose fence the list ended', () => {
    const text = '- Run:\n  ```sh\n  npm test\n\n<frozen-after-approval>\n\n## Intent\n\nShow the badge.\n\n</frozen-after-approval>\n'
    expect(read(text)).toEqual({items: ['## Intent', 'Show the badge.'], problems: []})
  })

  it('skips tags inside a fence', () => {
    const text = '```md\n<frozen-after-approval>\nExample.\n</frozen-after-approval>\n```\n'
    expect(read(text)).toEqual({items: null, problems: []})
  })
})
