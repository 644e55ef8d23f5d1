/**
 * The `/reel` text as the user typed it. With `should_escape` (manifest), Slack sends mentions as
 * `<@U1|alice>` (kept: the core reads them for approvers and roles), links as `<https://…>` or
 * `<https://…|label>`, and escapes `&`, `<`, `>` as HTML entities
 * (https://docs.slack.dev/messaging/formatting-message-text#escaping). Links and entities are undone here, so
 * the core sees `caption https://cdn.example.com/a.mp4`, not `<https://cdn.example.com/a.mp4>`.
 * Zero-width spaces go too: cards fence formatting characters of names with them (text.ts), so a name
 * copied from a card still resolves.
 */
export function commandText(raw: string): string {
  return raw
    .replace(/\u200b/g, '')
    .replace(/<(https?:\/\/[^|>\s]+)(?:\|[^>]*)?>/g, '$1')
    .replace(/<mailto:[^|>\s]+\|([^>]*)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
