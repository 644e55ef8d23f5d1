/**
 * What each group of commands holds, in the core's words: `series` (the core's own group, `series create`) and
 * the groups a platform may file its rarely-run commands under (Discord's `/reel account link`, since a level
 * holds 25 entries at most). A platform's command list shows these as the groups' descriptions.
 */
const GROUP_SUMMARIES: Readonly<Record<string, string>> = {
  account: 'Your API key, identity and time zone',
  channel: "This channel's settings, follows and audit log",
  catalog: 'Voices, accepted values, accounts and assets',
  series: 'Automated series, generated and posted on a schedule',
};

/** The description of the command group `group`; its own name when the core has no words for it. */
export const groupSummary = (group: string): string => GROUP_SUMMARIES[group] ?? group;
