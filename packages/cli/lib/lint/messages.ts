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
  /** What the reporter prints of a cause: its stack, else its message. */
  cause: string | undefined
}

function describeCause(cause: unknown): string | undefined {
  if (cause === undefined || cause === null) return undefined
  if (typeof cause === 'object') {
    const value = ('stack' in cause && cause.stack) || ('message' in cause && cause.message)
    if (value) return String(value)
  }
  return String(cause)
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
    cause: describeCause(message.cause)
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
  if (data.cause !== undefined) message.cause = {stack: data.cause}
  return message
}
