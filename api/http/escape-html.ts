// HTML we write as strings (the customer pages' frame, the API reference, the development sign-in
// provider) escapes every value it interpolates, in text and in quoted attributes alike.
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
