/**
 * The playground page: a Slack-like layout (sidebar with channels and the "acting as" switch, the message
 * list, the composer) plus the dialogs the script fills (forms, confirmations). Server-rendered with the
 * history already in place; `/playground/static/playground.js` makes it live.
 */
import escapeHtml from 'escape-html';

export interface PageModel {
  workspace: string;
  channel: string;
  channels: readonly string[];
  user: string;
  users: readonly { id: string; name: string }[];
  /** Pre-rendered messages (see `renderHistory`). */
  history: string;
  /** Command names and summaries, offered as the composer's suggestions. */
  commands: readonly { name: string; summary: string }[];
}

export function renderPage(m: PageModel): string {
  const channelLinks = m.channels.map((c) => {
    const current = c === m.channel;
    return (
      `<li><a class="channel-link${current ? ' is-current' : ''}" href="/?channel=${encodeURIComponent(c)}&amp;user=${encodeURIComponent(m.user)}" ` +
      `data-channel="${escapeHtml(c)}" data-testid="channel-link"${current ? ' aria-current="page"' : ''}>` +
      `<span aria-hidden="true">#</span> ${escapeHtml(c)}<span class="unread-dot" hidden aria-label="new messages"></span></a></li>`
    );
  });
  const userOptions = m.users.map(
    (u) =>
      `<option value="${escapeHtml(u.id)}"${u.id === m.user ? ' selected' : ''}>${escapeHtml(u.name)}</option>`,
  );
  const suggestions = m.commands.map(
    (c) => `<option value="/reel ${escapeHtml(c.name)} ">${escapeHtml(c.summary)}</option>`,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>#${escapeHtml(m.channel)} · reelbot playground</title>
<link rel="stylesheet" href="/playground/static/playground.css">
<script type="module" src="/playground/static/playground.js"></script>
</head>
<body data-user="${escapeHtml(m.user)}" data-channel="${escapeHtml(m.channel)}">
<a class="skip-link" href="#composer-input">Skip to the message box</a>
<div class="app">
<nav class="sidebar" aria-label="Workspace">
<div class="workspace"><span class="workspace-logo" aria-hidden="true">▶</span><span class="workspace-name">reelbot playground</span></div>
<h2 class="sidebar-heading">Channels</h2>
<ul class="channel-list" data-testid="channel-list">${channelLinks.join('')}</ul>
<div class="acting-as">
<label for="user-switch">Acting as</label>
<select id="user-switch" class="select" data-testid="user-switch">${userOptions.join('')}</select>
</div>
<p class="sidebar-note">Workspace <code>${escapeHtml(m.workspace)}</code>. Switch person to try approvals.</p>
</nav>
<main class="channel">
<header class="channel-header">
<h1 data-testid="channel-name"><span aria-hidden="true">#</span><span data-channel-name>${escapeHtml(m.channel)}</span></h1>
<p class="channel-topic">Type <code>/reel help</code> to see what reelbot can do.</p>
<span class="connection" data-testid="connection" data-state="connecting" role="status">Connecting…</span>
</header>
<div class="messages" id="messages" data-testid="messages" role="log" aria-live="polite" aria-relevant="additions" aria-label="Messages">
<div class="empty-state" data-testid="empty-state">
<p class="empty-title">This is the start of <strong>#<span data-channel-name>${escapeHtml(m.channel)}</span></strong>.</p>
<p>Try <code>/reel help</code>, or <code>/reel create</code> to make a video.</p>
</div>
${m.history}
</div>
<form class="composer" id="composer" data-testid="composer" autocomplete="off">
<label class="visually-hidden" for="composer-input">Message #<span data-channel-name>${escapeHtml(m.channel)}</span></label>
<input id="composer-input" name="text" class="composer-input" data-testid="composer-input" list="command-suggestions"
 placeholder="/reel help" spellcheck="false" autocomplete="off" enterkeyhint="send">
<datalist id="command-suggestions">${suggestions.join('')}</datalist>
<button type="submit" class="btn btn-primary composer-send" data-testid="composer-send">Send</button>
<p class="composer-error" data-testid="composer-error" role="alert" hidden></p>
</form>
</main>
</div>
<dialog class="modal" id="form-dialog" data-testid="form-dialog"></dialog>
<dialog class="modal modal-small" id="confirm-dialog" data-testid="confirm-dialog" aria-labelledby="confirm-title" aria-describedby="confirm-text">
<form method="dialog" class="modal-form">
<header class="modal-header"><h2 id="confirm-title"></h2></header>
<div class="modal-body"><p id="confirm-text"></p></div>
<footer class="modal-footer">
<button value="deny" class="btn" data-testid="confirm-deny"></button>
<button value="confirm" class="btn btn-danger" data-testid="confirm-accept"></button>
</footer>
</form>
</dialog>
</body>
</html>
`;
}
