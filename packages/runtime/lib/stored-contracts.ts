import {dialectNames, fieldLabels, tiers} from '@verification-tiers/contracts/terms'
import type {Contract, ContractField, ContractItem, ContractText, CriterionCheck, Dialect, FieldKey, SliceHeading, Tier} from '@verification-tiers/contracts'

/**
 * Contracts as a file stores them, and back: every field checked on the way
 * back (its type, every position), so a stored contract is used only when it
 * has exactly the model’s shape. Positions are stored as six numbers
 * (`[line, column, offset, line, column, offset]`), a third of their size as
 * objects.
 */
export interface Codec<Value> {
  encode: (value: Value) => unknown
  /** The value, or a `StoredShapeError` naming where (`[2].criteria[0].position`) it is off. */
  decode: (value: unknown, at: string) => Value
}

/** A stored value that does not have the shape of what was stored. */
export class StoredShapeError extends Error {
  constructor(
    readonly at: string,
    expected: string
  ) {
    super(`Unexpected value at \`${at || 'the top'}\`, expected ${expected}`)
    this.name = 'StoredShapeError'
  }
}

type Position = Contract['position']
type Point = Position['start']

const fail = (at: string, expected: string): never => {
  throw new StoredShapeError(at, expected)
}

function primitive<Value>(test: (value: unknown) => value is Value, expected: string): Codec<Value> {
  return {encode: (value) => value, decode: (value, at) => (test(value) ? value : fail(at, expected))}
}

const string = primitive((value): value is string => typeof value === 'string', 'a string')
const boolean = primitive((value): value is boolean => typeof value === 'boolean', 'true or false')
const number = primitive((value): value is number => typeof value === 'number' && Number.isFinite(value), 'a number')

function oneOf<Value extends string>(values: readonly Value[]): Codec<Value> {
  return primitive((value): value is Value => values.includes(value as Value), values.join(' or '))
}

function nullable<Value>(codec: Codec<Value>): Codec<Value | null> {
  return {
    encode: (value) => (value === null ? null : codec.encode(value)),
    decode: (value, at) => (value === null ? null : codec.decode(value, at))
  }
}

/** An optional field: absent when stored as absent. */
function optional<Value>(codec: Codec<Value>): Codec<Value | undefined> {
  return {
    encode: (value) => (value === undefined ? undefined : codec.encode(value)),
    decode: (value, at) => (value === undefined ? undefined : codec.decode(value, at))
  }
}

function list<Value>(codec: Codec<Value>): Codec<Value[]> {
  return {
    encode: (values) => values.map((value) => codec.encode(value)),
    decode: (value, at) => (Array.isArray(value) ? value.map((item, index) => codec.decode(item, `${at}[${index}]`)) : fail(at, 'a list'))
  }
}

/**
 * An object with exactly these fields. Typed by the object’s keys: a field
 * added to the model must be added here, or this does not compile.
 */
function object<Value extends object>(fields: {[Key in keyof Value]-?: Codec<Value[Key]>}): Codec<Value> {
  const entries = Object.entries(fields) as Array<[string, Codec<unknown>]>
  const known = new Set(entries.map(([key]) => key))
  return {
    encode: (value) => {
      const stored: Record<string, unknown> = {}
      for (const [key, codec] of entries) {
        const encoded = codec.encode((value as Record<string, unknown>)[key])
        if (encoded !== undefined) stored[key] = encoded
      }
      return stored
    },
    decode: (value, at) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(at, 'an object')
      for (const key of Object.keys(value)) if (!known.has(key)) fail(`${at}.${key}`, 'no such field')
      const decoded: Record<string, unknown> = {}
      for (const [key, codec] of entries) {
        const field = codec.decode((value as Record<string, unknown>)[key], `${at}.${key}`)
        if (field !== undefined) decoded[key] = field
      }
      return decoded as Value
    }
  }
}

const isCount = (value: unknown, least: number): value is number => Number.isSafeInteger(value) && (value as number) >= least

/** A position as six numbers; an absent offset is `null`. */
const position: Codec<Position> = {
  encode: ({start, end}) => [start.line, start.column, start.offset ?? null, end.line, end.column, end.offset ?? null],
  decode: (value, at) => {
    const expected = 'a position: [line, column, offset, line, column, offset]'
    if (!Array.isArray(value) || value.length !== 6) return fail(at, expected)
    const point = (line: unknown, column: unknown, offset: unknown): Point => {
      if (!isCount(line, 1) || !isCount(column, 1) || !(offset === null || isCount(offset, 0))) return fail(at, expected)
      return offset === null ? {line, column} : {line, column, offset}
    }
    return {start: point(value[0], value[1], value[2]), end: point(value[3], value[4], value[5])}
  }
}

// The dialects and tiers the model knows, from the model itself: a dialect added there is stored here.
const dialect = oneOf<Dialect>(dialectNames)
const tier = oneOf<Tier>(tiers)
const fieldKey = oneOf(Object.keys(fieldLabels) as FieldKey[])

const check = object<CriterionCheck>({
  method: oneOf(['bash', 'manual']),
  command: nullable(string),
  timeout: nullable(number),
  invalidTimeout: optional(object<NonNullable<CriterionCheck['invalidTimeout']>>({text: string, place: position}))
})

const item = object<ContractItem>({text: string, position, check: nullable(check)})

const text = object<ContractText>({kind: string, text: string, position})

const field = object<ContractField>({
  key: nullable(fieldKey),
  label: string,
  expectedLabel: nullable(string),
  value: string,
  dialect,
  position,
  labelPosition: position,
  valuePosition: nullable(position),
  items: list(item),
  hasList: boolean,
  unread: list(text)
})

const contract = object<Contract>({
  id: nullable(string),
  name: string,
  label: string,
  dialect,
  position,
  headingPosition: position,
  tier: nullable(string),
  effectiveTier: tier,
  criteria: list(item),
  steps: list(item),
  slice: nullable(string),
  sliceHeading: nullable(object<SliceHeading>({id: string, name: string})),
  fields: list(field)
})

/** The contracts of one file, as stored and back. */
export const storedContracts: Codec<Contract[]> = list(contract)
