import type {Point, Position} from 'unist'
import {VFileMessage} from 'vfile-message'

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

/**
 * Whether a message can be kept and shown again as it was: a rule’s message
 * (it has a source) with no cause, or with a rule’s message as its cause
 * (an error’s stack could not be shown again).
 */
export function isKeepable(message: VFileMessage): boolean {
  const {cause} = message
  return message.source !== undefined && (cause === undefined || (cause instanceof VFileMessage && cause.source !== undefined && cause.cause === undefined))
}

export function toMessageData(message: VFileMessage): MessageData {
  return {
    reason: message.reason,
    fatal: message.fatal ?? null,
    place: message.place ?? null,
    ruleId: message.ruleId ?? null,
    source: message.source ?? null,
    url: message.url ?? null,
    note: message.note ?? null,
    actual: message.actual ?? null,
    expected: message.expected ?? null,
    ...(message.cause instanceof VFileMessage ? {cause: toMessageData(message.cause)} : {})
  }
}

/** The message again, as `file.message` made it for the file at `path`. */
export function fromMessageData(data: MessageData, path: string): VFileMessage {
  const message = new VFileMessage(data.reason, {place: data.place ?? undefined, ruleId: data.ruleId ?? undefined, source: data.source ?? undefined})
  message.file = path
  message.fatal = data.fatal ?? undefined
  if (data.url !== null) message.url = data.url
  if (data.note !== null) message.note = data.note
  if (data.actual !== null) message.actual = data.actual
  if (data.expected !== null) message.expected = data.expected
  if (data.cause) message.cause = fromMessageData(data.cause, path)
  return message
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
