/** Display names of the platform values (spec §1); unknown values are shown as given. */
export const PLATFORM_NAMES: Record<string, string> = {
  youtube: 'YouTube',
  tiktok: 'TikTok',
  instagram: 'Instagram',
  x: 'X',
  facebook: 'Facebook',
  linkedin: 'LinkedIn',
  threads: 'Threads',
};

import { type CardText, literal } from '../text/text.js';

/** A platform value as its name, as card text (an unknown value shown as given, escaped). */
export const platformName = (p: string): CardText => literal(PLATFORM_NAMES[p] ?? p);
