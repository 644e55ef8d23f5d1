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

export const platformName = (p: string): string => PLATFORM_NAMES[p] ?? p;
