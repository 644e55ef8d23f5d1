// @ts-check
/*
 * reelbot playground page script. Vanilla ES modules, no build step. The server renders every message,
 * card and form as HTML; the script only moves that HTML into place (new message, edited card, thread
 * reply), sends what the user does as JSON, and keeps the page live over server-sent events.
 *
 * This entry wires the parts together: page.js (elements and state), message-list.js, server.js,
 * composer.js, cards.js, form-dialog.js and form-submit.js, channels.js (people, channels, live updates).
 */
import './cards.js';
import './composer.js';
import './form-submit.js';
import { connect } from './channels.js';
import { localizeTimes, refreshThread, scrollToBottom } from './message-list.js';
import { input, messages } from './page.js';

localizeTimes(document);
for (const thread of messages.querySelectorAll('.thread')) refreshThread(thread);
scrollToBottom();
connect();
input.focus();
