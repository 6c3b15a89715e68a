// Plain data only, no vfile: the lint cache is read and checked with this
// alone when a run is answered whole from it.
import type {Point, Position} from 'unist'

/** A rule’s message as plain data, to keep in the lint cache. */
export interface MessageData {
  reason: string
  fatal: boolean | null
  place: Position | Point | null
  ruleId: string | null
  source: string | null
  url: string | null
  note: string | null
  actual: string | null
  expected: string[] | null
  /** A rule’s cause (the first of two fields), itself without a cause; absent when there is none. */
  cause?: MessageData
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const isCount = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && value >= 0
const isText = (value: unknown): boolean => value === null || typeof value === 'string'

function isPoint(value: unknown): value is Point {
  return isObject(value) && isCount(value.line) && isCount(value.column) && (value.offset === undefined || isCount(value.offset))
}

/** Whether `value` is a message as `toMessageData` writes it: anything else in a cache is not trusted. */
export function isMessageData(value: unknown): value is MessageData {
  if (!isObject(value) || typeof value.reason !== 'string') return false
  if (!(value.fatal === null || typeof value.fatal === 'boolean')) return false
  const place = value.place
  if (!(place === null || isPoint(place) || (isObject(place) && isPoint(place.start) && isPoint(place.end)))) return false
  if (![value.ruleId, value.source, value.url, value.note, value.actual].every(isText)) return false
  if (!(value.expected === null || (Array.isArray(value.expected) && value.expected.every((each) => typeof each === 'string')))) return false
  return value.cause === undefined || (isMessageData(value.cause) && (value.cause as MessageData).cause === undefined)
}
