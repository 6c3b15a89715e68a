/**
 * How a reply to the Verify checkpoint is read: the approving forms people
 * type approve; a bare no asks for the description; anything else, above all
 * a reply that holds an approval word beside other words, is feedback.
 */
import fc from 'fast-check'
import {approvalReplies, barePartialReplies, bareRejectionReplies, checkpointChoices, negatingWords, replyEndings} from '@verification-tiers/protocol'
import {interpretResponse, mentionsApproval, normalizeReply} from '@verification-tiers/runtime'
import {describe, expect, it} from 'vitest'

const feedback = (reply: string, partial = false) => ({kind: 'rejection', feedback: reply, partial})
const needsDescription = (reply: string, partial = false) => ({kind: 'needs-description', text: reply, partial})

/** `word` as someone may type it: any case, spaces around and inside, `.`, `!` or `)` at the end. */
const typed = (word: string) =>
  fc
    .record({
      cases: fc.array(fc.boolean(), {minLength: word.length, maxLength: word.length}),
      before: fc.stringMatching(/^[ \t\n]{0,3}$/),
      inside: fc.constantFrom(' ', '  ', '\t', ' \n '),
      ending: fc.array(fc.constantFrom(...replyEndings, ' '), {maxLength: 3}),
      after: fc.stringMatching(/^[ \t\n]{0,3}$/)
    })
    .map(({cases, before, inside, ending, after}) => {
      const cased = [...word].map((char, index) => (cases[index] ? char.toUpperCase() : char)).join('')
      return `${before}${cased.replaceAll(' ', inside)}${ending.join('')}${after}`
    })

describe('interpretResponse', () => {
  it('approves the forms people type', () => {
    for (const reply of [
      'yes',
      'Yes.',
      'YES!',
      'y',
      'Y',
      'approve',
      'approved.',
      'Approved!',
      'lgtm',
      'LGTM',
      'ok',
      'OK.',
      'okay',
      '1',
      '1)',
      '1.',
      ' 1 ',
      'yes please',
      'Yes please!',
      'looks good',
      'Looks good to me.',
      'ship it!',
      '\tyes\n'
    ]) {
      expect(interpretResponse(reply), reply).toEqual({kind: 'approval', text: reply})
    }
  })

  it('never approves a reply that says more, asks, or turns it around', () => {
    for (const reply of [
      'yes, but the header is wrong',
      'not ok',
      'ok?',
      'approve after fixing the header',
      'yes but',
      'no ok',
      'okay-ish',
      'yess',
      '11',
      '1 but',
      'lgtm except the footer',
      'y/n',
      '(yes)',
      '"yes"',
      'yes.no',
      'ok ok'
    ]) {
      expect(interpretResponse(reply), reply).toEqual(feedback(reply))
    }
  })

  it('asks for the description on a bare no, 2, reject or an empty reply, and records it as nothing', () => {
    for (const reply of ['no', 'No.', 'n', 'N!', '2', '2)', '2.', 'reject', 'Rejected.', 'nope', '', '   ', '.']) {
      expect(interpretResponse(reply), reply).toEqual(needsDescription(reply))
    }
    for (const reply of ['3', '3)', 'partial', 'Partially.', ' PARTIALLY ']) {
      expect(interpretResponse(reply), reply).toEqual(needsDescription(reply, true))
    }
  })

  it('keeps option 3 with its description as partial feedback, verbatim', () => {
    for (const reply of [
      '3 the header is wrong',
      '3) the header is wrong',
      'Partially: the badge is orange',
      '  PARTIALLY — 2 of 3 criteria met  ',
      'partial, the footer'
    ]) {
      expect(interpretResponse(reply), reply).toEqual(feedback(reply, true))
    }
    for (const reply of ['30 items are missing', 'partiality is the problem', '2 the header is wrong', 'no, the header is wrong']) {
      expect(interpretResponse(reply), reply).toEqual(feedback(reply))
    }
  })

  it('reads each checkpoint choice typed back as printed, whole or in part, as the choice itself', () => {
    for (const {choice, label, text} of checkpointChoices) {
      const expected = choice === '1' ? (reply: string) => ({kind: 'approval', text: reply}) : (reply: string) => needsDescription(reply, choice === '3')
      for (const reply of [
        `${choice}) ${label} — ${text}`,
        `${choice}) ${label} - ${text}`,
        `${label} — ${text}`,
        `${label.toUpperCase()} – ${text}.`,
        `${choice}) ${label}`
      ]) {
        expect(interpretResponse(reply), reply).toEqual(expected(reply))
      }
    }
    // A choice with words of the person's own is what they wrote: feedback.
    expect(interpretResponse('1) Yes — mark complete and continue, but fix the footer')).toEqual(
      feedback('1) Yes — mark complete and continue, but fix the footer')
    )
  })

  it('tells a reply that holds an approval word among others from a plain rejection', () => {
    for (const reply of ['yes, but the header is wrong', 'LGTM except the footer', 'ok?', 'approve after fixing the header'])
      expect(mentionsApproval(reply), reply).toBe(true)
    for (const reply of ['The grid shows 2 columns, not 3', 'Partially: the badge is orange', 'yesterday it broke', 'token expired'])
      expect(mentionsApproval(reply), reply).toBe(false)
  })

  it('normalizes case, skin tone, spaces and the final `.`, `!` or `)` only', () => {
    expect(normalizeReply('  Looks\t GOOD!! ')).toBe('looks good')
    for (const thumb of ['👍🏽', '👍🏻', '👍️', '👍🏿!']) expect([thumb, interpretResponse(thumb).kind]).toEqual([thumb, 'approval'])
    expect(interpretResponse('✅️').kind).toBe('approval')
    expect(interpretResponse('👍👍').kind).toBe('rejection')
    expect(normalizeReply('1) ')).toBe('1')
    expect(normalizeReply('ok?')).toBe('ok?')
    expect(normalizeReply('(yes)')).toBe('(yes')
  })
})

describe('the vocabulary cannot approve by mistake', () => {
  it('no approval reply holds a negating word, nor is a bare no; every approval is already in its compared form', () => {
    for (const reply of approvalReplies) {
      expect(
        reply.split(' ').filter((word) => negatingWords.includes(word)),
        reply
      ).toEqual([])
      expect(normalizeReply(reply)).toBe(reply)
      expect([...bareRejectionReplies, ...barePartialReplies]).not.toContain(reply)
    }
    // The output tells a person to reply `yes` to approve.
    expect(approvalReplies).toContain('yes')
  })
})

describe('properties over the class of replies', () => {
  it('an approval reply in any case, spacing and final punctuation approves', () => {
    fc.assert(
      fc.property(fc.constantFrom(...approvalReplies).chain(typed), (reply) => {
        expect(interpretResponse(reply)).toEqual({kind: 'approval', text: reply})
      }),
      {numRuns: 500}
    )
  })

  it('a bare no or partially in any form asks for the description', () => {
    fc.assert(
      fc.property(fc.constantFrom(...bareRejectionReplies, ...barePartialReplies).chain(typed), (reply) => {
        expect(interpretResponse(reply).kind).toBe('needs-description')
      }),
      {numRuns: 300}
    )
  })

  it('a reply holding a negating word anywhere never approves', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...negatingWords).chain(typed), fc.string(), fc.constantFrom(' ', ', ', '\n'), (before, word, after, gap) => {
        expect(interpretResponse(`${before}${gap}${word}${gap}${after}`).kind).not.toBe('approval')
      }),
      {numRuns: 500}
    )
  })

  it('an approval reply with anything more than spacing and a final `.`, `!` or `)` never approves unless the whole is itself an approval reply', () => {
    const extra = fc.string({minLength: 1}).filter((text) => normalizeReply(text) !== '')
    fc.assert(
      fc.property(fc.constantFrom(...approvalReplies).chain(typed), extra, fc.boolean(), (reply, more, first) => {
        const whole = first ? `${more}${reply}` : `${reply}${more}`
        fc.pre(!approvalReplies.includes(normalizeReply(whole)))
        // The choice's number before its label (`1 yes`, `1) yes`) is the choice typed back as printed, which approves.
        fc.pre(!(first && /^\s*1\)?\s*$/.test(more)))
        expect(interpretResponse(whole)).toMatchObject({kind: 'rejection', feedback: whole})
      }),
      // Found by this property: a dash before or after an approval (`yes-`) was read as the dash between a choice's label and text.
      {
        numRuns: 500,
        examples: [
          ['yes', '-', false],
          ['yes', '-', true],
          ['ok', ' —', false]
        ]
      }
    )
  })

  it('feedback is kept exactly as given', () => {
    fc.assert(
      fc.property(fc.string(), (reply) => {
        const read = interpretResponse(reply)
        if (read.kind === 'rejection') expect(read.feedback).toBe(reply)
        else expect(read.text).toBe(reply)
      })
    )
  })
})
