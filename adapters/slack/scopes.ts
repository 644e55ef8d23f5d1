/**
 * The bot scopes reelbot asks for, each for one reason; `manifest.yml` lists the same (a test compares them).
 * Not asked: any user scope. `test/slack/scopes-by-method.test.ts` derives this list from the methods called.
 */
export const BOT_SCOPES = {
  /** The `/reel` slash command. */
  commands: 'the /reel command',
  /** Post and edit status cards, post ephemeral answers and notices. */
  'chat:write': 'post and edit status cards, private answers and notices',
  /** Post a status card in a public channel where /reel was used without inviting the bot first. */
  'chat:write.public': 'post status cards in public channels the bot was not invited to',
  /** `users.info`: the caller's time zone (`user.tz`) and display name. */
  'users:read': "the caller's time zone and display name",
  /** `usergroups.list`: which user groups the caller is in, when approvers or roles name a group. */
  'usergroups:read': 'approvers and roles named by user group (who is in the group)',
  /** After a crash, find a card already posted (message metadata) instead of posting it twice. */
  'channels:history': 'find an already-posted card after a restart (public channels)',
  'groups:history': 'find an already-posted card after a restart (private channels)',
  /** `conversations.members`: a channel's subscriptions show on a member's dashboard only if they are in it. */
  'channels:read': 'show a channel’s subscriptions on the dashboard only to its members (public channels)',
  'groups:read': 'show a channel’s subscriptions on the dashboard only to its members (private channels)',
  /** `files.uploadV2`: the `--csv` exports (audit, calendar, videos) as files. */
  'files:write': 'send --csv exports as files',
  /** `files.info` and `url_private` downloads: a script or description uploaded in a form or shared by link. */
  'files:read': 'read a .txt/.md script uploaded in a form or shared by its link',
  /** `conversations.open`: the member's DM with the app, where the Home tab's actions answer. */
  'im:write': "open the member's DM with the app (Home tab actions)",
} as const;

export const BOT_SCOPE_NAMES = Object.keys(BOT_SCOPES);

/** Events the app subscribes to (no scope needed for any of them). */
export const BOT_EVENTS = ['app_home_opened', 'app_uninstalled', 'tokens_revoked'] as const;
