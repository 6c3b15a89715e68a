import type {Point, Position} from 'unist'
import type {VFileMessage} from 'vfile-message'

/** A message’s place as a start and an optional end (a point has no end). */
export function messageRange(message: VFileMessage): {start: Point; end: Point | undefined} | undefined {
  const place = message.place
  if (!place) return undefined
  if ('start' in place) return {start: place.start, end: place.end}
  return {start: place, end: undefined}
}

/** Whether a place is a whole range with offsets into the file’s text. */
export function hasOffsets(place: VFileMessage['place']): place is Position & {start: {offset: number}; end: {offset: number}} {
  return Boolean(place && 'start' in place && typeof place.start.offset === 'number' && typeof place.end.offset === 'number')
}
