import {extractContracts, findUnreadContracts} from '@verification-tiers/contracts'
import type {Contract} from '@verification-tiers/contracts'
import {describe, expect, it} from 'vitest'
import {parse} from './helpers.js'

const contract = '### C-02: Checkout\n\n**Verification:** verify\n**Acceptance Criteria:**\n- Paying with a saved card needs no retyping\n'

/** Unread headings of `value` as `line:column-line:column reason: text`, given what the reader read (by default, what it reads). */
function unread(value: string, contracts?: readonly Contract[]): string[] {
  const {file, tree} = parse(value)
  return findUnreadContracts(value, tree, contracts ?? extractContracts(tree, file)).map(
    ({place, reason, text}) => `${place.start.line}:${place.start.column}-${place.end.line}:${place.end.column} ${reason}: ${text}`
  )
}

/** The same, as if the reader read nothing: what markdown alone hides. */
function hidden(value: string): string[] {
  return unread(value, [])
}

describe('findUnreadContracts', () => {
  it('reports nothing for contracts the reader read', () => {
    expect(unread('# Contracts\n\n' + contract + '\n### Contract: Receipt\n\n**Verification:** auto\n')).toEqual([])
  })

  it('reports a heading with fields that is not in `contracts`, placed from its first `#`', () => {
    expect(hidden(contract)).toEqual(['1:1-1:19 that the reader does not recognise: ### C-02: Checkout'])
    expect(hidden('> ### C-02: Checkout\n')).toEqual(['1:3-1:21 inside a block quote: ### C-02: Checkout'])
  })

  describe('HTML right above the heading', () => {
    for (const line of ['<img src="mockup.png">', '<br>', '</div>', '<p>', '<details>', '<summary>Notes</summary>']) {
      it(line, () => {
        expect(hidden(line + '\n' + contract)).toEqual(['2:1-2:19 inside an HTML block: ### C-02: Checkout'])
      })
    }

    it('on the same line', () => {
      expect(hidden('<summary>### C-02: Checkout</summary>\n')).toEqual(['1:10-1:28 after HTML on the same line: ### C-02: Checkout'])
      expect(hidden('<b>### C-02: Checkout\n')).toEqual(['1:4-1:22 after HTML on the same line: ### C-02: Checkout'])
    })

    it('not after a blank line, nor after a comment closed on its line', () => {
      expect(unread('<img src="mockup.png">\n\n' + contract)).toEqual([])
      expect(unread('<!-- mockup below -->\n' + contract)).toEqual([])
    })
  })

  describe('an unclosed block anywhere above it', () => {
    const cases: Array<[string, string]> = [
      ['<!--', 'inside an unclosed HTML comment'],
      ['<!-- draft', 'inside an unclosed HTML comment'],
      ['<script>', 'inside an unclosed `<script>`'],
      ['<pre>', 'inside an unclosed `<pre>`'],
      ['<style>', 'inside an unclosed `<style>`'],
      ['<TEXTAREA rows="3">', 'inside an unclosed `<textarea>`'],
      ['<?php', 'inside an unclosed HTML processing instruction'],
      ['<![CDATA[', 'inside an unclosed HTML CDATA section'],
      ['<!DOCTYPE', 'inside an unclosed HTML declaration'],
      ['```', 'inside an unclosed code fence'],
      ['~~~', 'inside an unclosed code fence'],
      ['```sh', 'inside an unclosed code fence'],
      ['````\n```', 'inside an unclosed code fence'],
      ['~~~~\n~~~', 'inside an unclosed code fence']
    ]
    for (const [opening, reason] of cases) {
      it(JSON.stringify(opening), () => {
        const value = opening + '\n\nSome text.\n\n' + contract
        const line = opening.split('\n').length + 4
        expect(hidden(value)).toEqual([`${line}:1-${line}:19 ${reason}: ### C-02: Checkout`])
      })
    }

    it('in quotes and lists too, up to the end of the quote or list', () => {
      expect(unread('> ```\n> ### C-01: Cart\n\n' + contract)).toEqual(['2:3-2:17 inside an unclosed code fence: ### C-01: Cart'])
      expect(hidden('- ```\n  ### C-01: Cart\n')).toEqual(['2:3-2:17 inside an unclosed code fence: ### C-01: Cart'])
    })

    it('says how to close it', () => {
      const {file, tree} = parse('````\n```\n' + contract)
      expect(findUnreadContracts(String(file.value), tree, []).map((entry) => entry.fix)).toEqual(['close the fence with ````` ```` ````` above it'])
    })
  })

  describe('a closed block around it', () => {
    it('an HTML comment, on its lines or one line', () => {
      expect(hidden('<!--\n' + contract + '-->\n')).toEqual(['2:1-2:19 inside an HTML comment: ### C-02: Checkout'])
      expect(hidden('<!-- ### C-02: Checkout -->\n')).toEqual(['1:6-1:24 inside an HTML comment: ### C-02: Checkout'])
    })

    it('a fence without a language', () => {
      expect(hidden('```\n' + contract + '```\n')).toEqual(['2:1-2:19 inside a code block: ### C-02: Checkout'])
    })

    it('a `<pre>` block', () => {
      expect(hidden('<pre>\n' + contract + '</pre>\n')).toEqual(['2:1-2:19 inside a `<pre>` block: ### C-02: Checkout'])
    })

    it('but not a fence with a language, which shows an example, nor a template of a heading', () => {
      expect(hidden('```markdown\n' + contract + '```\n')).toEqual([])
      expect(hidden('~~~md\n' + contract + '~~~\n')).toEqual([])
      expect(hidden('```\nEach contract is written:\n  ### Contract: {Name}\n```\n')).toEqual([])
      expect(hidden('```\n### C-01: <name>\n```\n')).toEqual([])
    })

    it('frontmatter that a `---` further down closes', () => {
      expect(hidden('---\n' + contract + '---\n')).toEqual(['2:1-2:19 inside the frontmatter: ### C-02: Checkout'])
    })
  })

  describe('the heading line itself', () => {
    it('indented by four spaces or a tab: indented code', () => {
      expect(hidden('    ' + contract)).toEqual(['1:5-1:23 in indented code: ### C-02: Checkout'])
      expect(hidden('\t' + contract)).toEqual(['1:2-1:20 in indented code: ### C-02: Checkout'])
      expect(hidden('    ```\n    ' + contract)).toEqual(['2:5-2:23 in indented code: ### C-02: Checkout'])
    })

    it('indented under a paragraph: part of it', () => {
      expect(hidden('Checkout comes next.\n    ' + contract)).toEqual(['2:5-2:23 indented as part of a paragraph: ### C-02: Checkout'])
    })

    it('without a space after the `#`, or with more than six', () => {
      expect(hidden('###C-02: Checkout\n')).toEqual(['1:1-1:18 without a space after the `#`: ###C-02: Checkout'])
      expect(hidden('####### C-02: Checkout\n')).toEqual(['1:1-1:23 with more than six `#`: ####### C-02: Checkout'])
    })

    it('behind a non-breaking or invisible space, or with a full-width `＃`', () => {
      expect(hidden('\u00a0### C-02: Checkout\n')).toEqual(['1:2-1:20 with an invisible or non-breaking space around the `#`: ### C-02: Checkout'])
      expect(hidden('\u200b### C-02: Checkout\n')).toEqual(['1:2-1:20 with an invisible or non-breaking space around the `#`: ### C-02: Checkout'])
      expect(hidden('###\u00a0C-02: Checkout\n')).toEqual(['1:1-1:19 with an invisible or non-breaking space around the `#`: ###\u00a0C-02: Checkout'])
      expect(hidden('\uff03\uff03\uff03 C-02: Checkout\n')).toEqual(['1:1-1:19 with a full-width `＃`: ＃＃＃ C-02: Checkout'])
    })

    it('in a list item or a quote, the outermost named', () => {
      expect(hidden('- ### C-02: Checkout\n')).toEqual(['1:3-1:21 inside a list item: ### C-02: Checkout'])
      expect(hidden('1. ### C-02: Checkout\n')).toEqual(['1:4-1:22 inside a list item: ### C-02: Checkout'])
      expect(hidden('> ### C-02: Checkout\n')).toEqual(['1:3-1:21 inside a block quote: ### C-02: Checkout'])
      expect(hidden('> - ### C-02: Checkout\n')).toEqual(['1:5-1:23 inside a block quote: ### C-02: Checkout'])
    })
  })

  describe('what reads as a contract heading', () => {
    it('ids of any letters and digits, any dash, and `Contract: Name`', () => {
      for (const heading of [
        '**C-02**: Checkout',
        '`C-02` Checkout',
        '[C-02](#c-02): Checkout',
        '**Contract:** Checkout',
        'C-02: Checkout',
        'C2: Checkout',
        'c2. Checkout',
        'AUTH-3: Login',
        'GROUP-12',
        'C‑02: Checkout',
        'C–02 — Checkout',
        'C−02',
        'Contract: Checkout',
        'contract：Checkout'
      ]) {
        expect(hidden('<br>\n### ' + heading + '\n'), heading).toEqual([`2:1-2:${5 + heading.length} inside an HTML block: ### ${heading}`])
      }
    })

    it('not words that merely hold a digit, nor text without `#`', () => {
      for (const line of ['### H2 Title', '### MP3 support', '### Step 1', '### C-', 'C-02: Checkout', '\\### C-02: Checkout']) {
        expect(hidden('<br>\n' + line + '\n'), line).toEqual([])
      }
    })
  })

  describe('a top-level heading the reader did not take', () => {
    it('is reported when contract fields follow it directly', () => {
      expect(unread('### AUTH-3: Login\n\n**Verification:** verify\n', [])).toEqual(['1:1-1:18 that the reader does not recognise: ### AUTH-3: Login'])
      expect(unread('### C‑02: Checkout\n\nAcceptance criteria:\n- Pay\n', [])).toEqual(['1:1-1:19 with an unusual dash in its id: ### C‑02: Checkout'])
    })

    it('is not when nothing of a contract follows, or when fields are in a part of its own', () => {
      expect(unread('## S-22: Summary\n\nWhat changed.\n', [])).toEqual([])
      expect(unread('# S-22: Summary\n\n## Verification\n\n- Tier: auto\n', [])).toEqual([])
    })

    it('is not when it is a slice: a slice heading, or one that lists its contracts', () => {
      expect(unread('## S-01: Storage\n\nVerification: auto\nContracts: C-01, C-02\n', [])).toEqual([])
      expect(unread('### PHASE-2: Storage\n\n- Tier: verify\n- Contracts: C-01\n', [])).toEqual([])
    })

    it('is not when it holds contracts (a slice), nor the title of a frontmatter contract', () => {
      expect(unread('## S-01: Cards\n\n**Verification:** verify\n\n' + contract)).toEqual([])
      expect(unread('---\nid: C-06\ncontract: ExportCsv\nverification: verify\n---\n\n# C-06: ExportCsv\n\n**Steps:** Open it\n')).toEqual([])
    })
  })

  it('places a heading after a byte order mark and CRLF line ends as the tree does', () => {
    const value = '\ufeff<br>\r\n### C-02: Checkout\r\n'
    const {tree} = parse(value)
    expect(findUnreadContracts(value, tree, [])).toEqual([
      {
        text: '### C-02: Checkout',
        place: {start: {line: 2, column: 1, offset: 6}, end: {line: 2, column: 19, offset: 24}},
        reason: 'inside an HTML block',
        fix: 'add a blank line between the HTML and the heading'
      }
    ])
  })

  it('finds a heading hidden under thousands of nested quotes without overflowing the stack', () => {
    const value = '> '.repeat(5000) + '### C-02: Checkout\n'
    expect(hidden(value)).toEqual([`1:10001-1:10019 inside a block quote: ### C-02: Checkout`])
  })
})
