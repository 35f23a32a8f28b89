/** One Server-Sent Event as the stream wrote it; comment lines (heartbeats) come as event 'comment'. */
export type SseMessage = { event: string; data: string; id: string | null };

/**
 * Reads Server-Sent Events from text arriving in pieces (the fetch body of a stream): feed it
 * each decoded piece, it answers the events that piece completed. Follows the EventSource
 * parsing rules for the fields we use (event, data, id; `:` comments).
 */
export function sseParser(): (piece: string) => SseMessage[] {
  let buffer = '';
  return (piece) => {
    buffer += piece.replace(/\r\n?/g, '\n');
    const out: SseMessage[] = [];
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      let id: string | null = null;
      const data: string[] = [];
      let comment = true;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        comment = false;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
        else if (field === 'id') id = value;
      }
      out.push(comment ? { event: 'comment', data: '', id: null } : { event, data: data.join('\n'), id });
    }
    return out;
  };
}
