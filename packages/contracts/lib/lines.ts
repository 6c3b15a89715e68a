/**
 * The lines of `text`, split at every line ending markdown counts: LF, CRLF,
 * or a lone CR.
 */
export function splitAtLineEndings(text: string): string[] {
  // Most text has LF endings only: a plain split gives the same lines, several times faster.
  return text.includes('\r') ? text.split(/\r\n?|\n/) : text.split('\n')
}
