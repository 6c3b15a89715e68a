import {VFileMessage} from 'vfile-message'
import type {MessageData} from './message-data.js'

export {isMessageData} from './message-data.js'
export type {MessageData} from './message-data.js'

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
