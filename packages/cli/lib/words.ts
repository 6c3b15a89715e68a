/** `1 warning`, `3 warnings`: a count with its noun, for messages. */
export const counted = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`
