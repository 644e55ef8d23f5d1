/** Where Slack reaches the adapter on the shared HTTP server. */
export const EVENTS_PATH = '/slack/events';
export const INSTALL_PATH = '/slack/install';
export const REDIRECT_PATH = '/slack/oauth_redirect';
