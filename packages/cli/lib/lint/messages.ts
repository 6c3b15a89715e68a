import type {Position} from 'unist'
import {VFileMessage} from 'vfile-message'

/** A message as plain data, to cross from a worker thread. */
export interface MessageData {
  reason: string
  fatal: boolean | null | undefined
  place: Position | Position['start'] | undefined
  ruleId: string | undefined
  source: string | undefined
  url: string | undefined
  note: string | undefined
  actual: string | undefined
  expected: string[] | undefined
  cause: CauseData | undefined
  /** The stack of an error given as the reason, which the reporter prints instead of it. */
  stack: string | undefined
}

/** What the reporter prints of a cause: a message, an error’s stack (and its own cause), or text. */
export type CauseData = {message: MessageData} | {stack: string; cause: CauseData | undefined} | {text: string}

function describeCause(cause: unknown): CauseData | undefined {
  if (cause === undefined || cause === null || cause === false || cause === 0 || cause === '') return undefined
  if (typeof cause === 'object') {
    if ('file' in cause && 'fatal' in cause && cause instanceof Error) return {message: toMessageData(cause as VFileMessage)}
    const stack = ('stack' in cause ? String(cause.stack) : undefined) || ('message' in cause ? String(cause.message) : undefined)
    if (stack !== undefined) return {stack, cause: 'cause' in cause ? describeCause(cause.cause) : undefined}
  }
  return {text: String(cause)}
}

function restoreCause(data: CauseData): unknown {
  if ('message' in data) return fromMessageData(data.message, '')
  if ('text' in data) return data.text
  return data.cause === undefined ? {stack: data.stack} : {stack: data.stack, cause: restoreCause(data.cause)}
}

export function toMessageData(message: VFileMessage): MessageData {
  return {
    reason: message.reason,
    fatal: message.fatal,
    place: message.place ?? undefined,
    ruleId: message.ruleId,
    source: message.source,
    url: message.url,
    note: message.note,
    actual: message.actual,
    expected: message.expected,
    cause: describeCause(message.cause),
    stack: message.stack || undefined
  }
}

export function fromMessageData(data: MessageData, file: string): VFileMessage {
  const message = new VFileMessage(data.reason, {place: data.place, ruleId: data.ruleId, source: data.source})
  message.file = file
  message.fatal = data.fatal
  if (data.url !== undefined) message.url = data.url
  if (data.note !== undefined) message.note = data.note
  if (data.actual !== undefined) message.actual = data.actual
  if (data.expected !== undefined) message.expected = data.expected
  if (data.cause !== undefined) message.cause = restoreCause(data.cause)
  message.stack = data.stack ?? ''

  return message
}
