import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {contractKey, foldContractName, normalizeContractId} from '@verification-tiers/contracts'

// Every dash people and editors put in an id.
const dashes = ['-', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2212', '\uFE63', '\uFF0D']

describe('contractKey', () => {
  it('is one key for an id however it is written: case, dash or none, leading zeros', () => {
    const letters = fc.stringMatching(/^[A-Za-z]{1,5}$/)
    fc.assert(
      fc.property(letters, fc.nat(9999), fc.nat(3), fc.constantFrom('', ...dashes), fc.boolean(), (prefix, number, zeros, dash, upper) => {
        const written = `${upper ? prefix.toUpperCase() : prefix.toLowerCase()}${dash}${'0'.repeat(zeros)}${number}`
        expect(contractKey(written)).toBe(`${prefix.toUpperCase()}-${number}`)
        // The key of the id as contracts name it is the same key.
        expect(contractKey(normalizeContractId(written))).toBe(contractKey(written))
      })
    )
  })

  it('matches names as the reader folds them: case, space and dashes aside', () => {
    fc.assert(
      fc.property(fc.string(), (name) => {
        fc.pre(!/^\s*[A-Za-z]+[-\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]?\d+\s*$/.test(name))
        expect(contractKey(name)).toBe(foldContractName(name))
        expect(contractKey(` ${name.toUpperCase()}  `)).toBe(contractKey(name.toLowerCase()))
      })
    )
  })

  it('keeps ids apart that differ in more than writing', () => {
    expect(contractKey('C-10')).not.toBe(contractKey('C-1'))
    expect(contractKey('C-0')).toBe('C-0')
    expect(contractKey('AUTH-3')).not.toBe(contractKey('C-3'))
  })
})
