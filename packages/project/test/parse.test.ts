/** Reading one contract file with a slice graph’s names, and the cache hash that keeps those readings apart. */
import {describe, expect, it} from 'vitest'
import {hashContractText, hashText} from '../lib/cache.js'
import {analyzeContractFile, parseContracts} from '../lib/parse.js'

const text = ['## Checkout flow', '', 'The cart becomes an order.', '', '<br>', '### C-07: Receipt', ''].join('\n')

describe('parseContracts with names', () => {
  it('starts a contract at a heading the graph names, and at no other', () => {
    expect(parseContracts('CONTRACTS.md', text).map((contract) => contract.label)).toEqual([])
    expect(parseContracts('CONTRACTS.md', text, {names: ['checkout FLOW']}).map((contract) => [contract.id, contract.name])).toEqual([[null, 'Checkout flow']])
  })

  it('gives the problems with the contracts', () => {
    const {problems} = analyzeContractFile('CONTRACTS.md', text)
    expect(problems.map((problem) => [problem.kind, problem.subject, problem.place.start.line])).toEqual([['unread-heading', '### C-07: Receipt', 6]])
  })
})

describe('hashContractText', () => {
  it('is the text’s hash without names, and differs with names, as the reader compares them', () => {
    expect(hashContractText(text)).toBe(hashText(text))
    expect(hashContractText(text, [])).toBe(hashText(text))
    expect(hashContractText(text, ['Checkout flow'])).not.toBe(hashText(text))
    expect(hashContractText(text, ['Checkout flow', 'C-07'])).toBe(hashContractText(text, [' c-07', 'CHECKOUT  FLOW']))
  })
})
